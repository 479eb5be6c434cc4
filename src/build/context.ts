import { readFileSync, writeFileSync } from "node:fs";
import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { InsightsDocument } from "@riverbend/shared/schemas/insights.ts";
import { type SiteUrls, siteUrls } from "@riverbend/shared/web/urls.ts";
import type { TopicListing } from "../insights/topics/rank-topics.ts";

/** Everything the prerendered pages need: the validated data, the insights derived from it, the public URLs. */
export interface BuildContext {
  dataset: Dataset;
  urls: SiteUrls;
  insights: InsightsDocument;
  /** The reviews of each published topic, as dataset positions (the review browser's topic pages). */
  topicListings: readonly TopicListing[];
}

type Prepared = Omit<BuildContext, "urls"> & { siteUrl: string };

/**
 * The name of the prepared file, compiled into the pages by the build through Vite's `define` (the
 * `vite` option of the Astro configuration `buildSite` passes to Astro's `build()`).
 */
export const CONTEXT_FILE_DEFINE = "__REVIEWS_BUILD_CONTEXT_FILE__";
declare const __REVIEWS_BUILD_CONTEXT_FILE__: string | undefined;

/**
 * Writes what the build prepared (validated data, insights) for the Astro pages to read. The data flows
 * one way: the build script validates and analyses before Astro runs, and the pages only render. A
 * file, because Astro renders from its own bundled copy of these modules: nothing in memory is shared.
 */
export function writeBuildContext(file: string, context: BuildContext): void {
  const { urls, ...rest } = context;
  const prepared: Prepared = { ...rest, siteUrl: urls.base };
  // JSON: the data is JSON already (read from JSON files, published as JSON), and at 100k reviews
  // JSON.parse read it back faster and with less memory than v8.deserialize (docs/benchmarks.md).
  writeFileSync(file, JSON.stringify(prepared));
}

let current: BuildContext | undefined;

/** The context `npm run build` prepared, read once per build. */
export function buildContext(): BuildContext {
  if (current) return current;
  const file = typeof __REVIEWS_BUILD_CONTEXT_FILE__ === "string" ? __REVIEWS_BUILD_CONTEXT_FILE__ : undefined;
  if (!file) {
    throw new Error(
      "The pages render data that `npm run build` prepares: run it (scripts/build.ts), not `astro build`.",
    );
  }
  const { siteUrl, ...rest } = JSON.parse(readFileSync(file, "utf8")) as Prepared;
  current = { ...rest, urls: siteUrls(siteUrl) };
  return current;
}
