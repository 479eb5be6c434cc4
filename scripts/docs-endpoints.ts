import { readFileSync, writeFileSync } from "node:fs";
import { withEndpointTable } from "@riverbend/shared/registry/endpoint-table.ts";

/** `npm run docs:endpoints`: rewrites the README's endpoint table from the document registry. */
const before = readFileSync("README.md", "utf8");
const after = withEndpointTable(before);
writeFileSync("README.md", after);
console.log(before === after ? "README.md: endpoint table already current" : "README.md: endpoint table updated");
