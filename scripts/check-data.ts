import { ConfigError, parseConfig } from "../src/config/parse-config.ts";
import { describeDrafts, draftStatuses } from "../src/data/editor/drafts.ts";
import { loadDataset } from "../src/data/load-dataset.ts";
import { DataValidationError } from "../src/data/problems.ts";

/** `npm run data:check [DIR]`: validate the data folder and list every problem found. */
function main(): number {
  try {
    const dir = process.argv[2] ?? parseConfig().DATA_DIR;
    const dataset = loadDataset(dir);
    console.log(`${dir}: OK, ${dataset.reviews.length} reviews of ${dataset.business.name}.`);
    for (const line of describeDrafts(draftStatuses(dir, dataset.business))) console.log(line);
    return 0;
  } catch (error) {
    if (error instanceof DataValidationError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

process.exitCode = main();
