import { parseArgs } from "node:util";
import { ConfigError, parseConfig } from "../src/config/parse-config.ts";
import { describeDrafts, draftStatuses } from "../src/data/editor/drafts.ts";
import { loadDataset } from "../src/data/load-dataset.ts";
import { DataValidationError } from "../src/data/problems.ts";

/** `npm run data:check [DIR]` (or `--data DIR`, as the editor's commands take it): validate and list every problem. */
function main(): number {
  try {
    const { values, positionals } = parseArgs({ options: { data: { type: "string" } }, allowPositionals: true });
    const dir = values.data ?? positionals[0] ?? parseConfig().DATA_DIR;
    const dataset = loadDataset(dir);
    console.log(`${dir}: OK, ${dataset.reviews.length} reviews of ${dataset.business.name}.`);
    for (const line of describeDrafts(draftStatuses(dir, dataset.business))) console.log(line);
    return 0;
  } catch (error) {
    if (error instanceof DataValidationError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    if (String((error as NodeJS.ErrnoException).code).startsWith("ERR_PARSE_ARGS")) {
      console.error(`${(error as Error).message}\nUsage: npm run data:check [-- DIR] or [-- --data DIR]`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = main();
