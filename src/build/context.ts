import { parseConfig } from "../config/parse-config.ts";
import type { Dataset } from "../data/dataset.ts";
import { loadDataset } from "../data/load-dataset.ts";
import { computeInsights } from "../insights/step/compute-insights.ts";
import type { InsightsDocument } from "../schemas/insights.ts";
import { type SiteUrls, siteUrls } from "../site/urls.ts";

/** Everything the prerendered pages need: the validated data, the insights derived from it, the public URLs. */
export interface BuildContext {
  dataset: Dataset;
  urls: SiteUrls;
  insights: InsightsDocument;
}

// The build script validates the data before Astro runs; Astro's bundled copy of this module is a
// different module instance in the same process, so the context is shared through a global symbol
// instead of loading and validating 100k files a second time.
const KEY = Symbol.for("riverbend-reviews.build-context");
type Holder = { [KEY]?: BuildContext };

export function setBuildContext(context: BuildContext): void {
  (globalThis as Holder)[KEY] = context;
}

/** The current build's context, loading the data folder from configuration when none was set. */
export function buildContext(): BuildContext {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const config = parseConfig();
    const dataset = loadDataset(config.DATA_DIR);
    const urls = siteUrls(config.SITE_URL);
    const { document } = computeInsights({ root: process.cwd(), dataDir: config.DATA_DIR, dataset, urls });
    holder[KEY] = { dataset, urls, insights: document };
  }
  return holder[KEY];
}
