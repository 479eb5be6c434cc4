import { readFileSync } from "node:fs";
import { type Lockfile, missingOptionalEntries } from "./lockfile/missing-entries.ts";

/** `npm run lockfile:check [FILE]`: fails when package-lock.json lacks another platform's packages. */
const file = process.argv[2] ?? "package-lock.json";
const missing = missingOptionalEntries(JSON.parse(readFileSync(file, "utf8")) as Lockfile);
if (missing.length > 0) {
  console.error(
    `${file} lacks ${missing.length} optional (platform) packages, so npm ci fails on other systems:\n${missing.map((m) => `  ${m}`).join("\n")}\nRegenerate it: see README, "Installing".`,
  );
  process.exitCode = 1;
} else {
  console.log(`${file}: every platform's optional packages are recorded.`);
}
