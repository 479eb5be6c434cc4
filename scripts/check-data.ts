import { parseArgs } from "node:util";
import { ConfigError, parseConfig } from "@riverbend/shared/config/parse-config.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { describeDrafts, draftStatuses } from "../src/data/editor/drafts.ts";
import { loadDataset } from "../src/data/load-dataset.ts";
import { DataValidationError } from "../src/data/problems.ts";
import { computeInsights } from "../src/insights/step/compute-insights.ts";

/**
 * `npm run data:check [DIR]` (or `--data DIR`, as the editor's commands take it): every check the build
 * runs on the data, without writing the site: the data folder, then the insights step over it (editor
 * files, placeholders, the figures editor text states), then the drafts and what each lacks.
 * Problems fail (the build would fail on them too); warnings are for the editor and pass, as in the build.
 */
async function main(): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ options: { data: { type: "string" } }, allowPositionals: true });
    const config = parseConfig();
    const dir = values.data ?? positionals[0] ?? config.DATA_DIR;
    const dataset = loadDataset(dir);
    const { warnings } = await computeInsights({
      root: process.cwd(),
      dataDir: dir,
      dataset,
      urls: siteUrls(config.SITE_URL),
    });
    for (const warning of warnings) console.warn(`warning: ${warning}`);
    const tail =
      warnings.length > 0 ? `, ${warnings.length} warning${warnings.length === 1 ? "" : "s"} for the editor` : "";
    console.log(`${dir}: OK, ${dataset.reviews.length} reviews of ${dataset.business.name}${tail}.`);
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

process.exitCode = await main();
