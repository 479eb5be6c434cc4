import { readFileSync } from "node:fs";
import path from "node:path";
import { LRUCache } from "lru-cache";
import type { Business } from "../../../src/schemas/business.ts";
import type { InsightsDocument } from "../../../src/schemas/insights.ts";
import type { AggregateRating } from "../../../src/schemas/reviews-document.ts";
import type { SearchResponse } from "../../../src/schemas/search.ts";
import { buildReviewIndex, type ReviewIndex } from "../../../src/search/review-index.ts";
import { searchReviews } from "../../../src/search/search-reviews.ts";
import { httpDate } from "../../../src/site/time.ts";
import type { JsonBody } from "../http/send-json.ts";
import { type Bundle, BundleError, loadBundle } from "./load-bundle.ts";
import { readReviewsDocument } from "./read-reviews.ts";

/**
 * A bounded cache of one build's answers: `cache.memo(key, { context: compute })` computes an answer
 * once. A build's data never changes, so neither do its answers; a compute that throws (invalid
 * input) stores nothing. The caches are dropped with the build when a new one is swapped in.
 */
export type BuildCache<V extends {}> = LRUCache<string, V, () => V>;

function buildCache<V extends {}>(max: number, size?: (value: V) => number): BuildCache<V> {
  return new LRUCache<string, V, () => V>({
    max,
    ...(size ? { maxSize: 32 * 1024 * 1024, sizeCalculation: (value: V) => size(value) + 64 } : {}),
    memoMethod: (_key, _stale, { context }) => context(),
  });
}

/** One build, loaded and indexed: everything a request needs, swapped as a unit. */
export interface LoadedBundle {
  bundle: Bundle;
  index: ReviewIndex;
  business: Business;
  aggregate: AggregateRating;
  insights: InsightsDocument;
  /** HTTP date of the latest change in the data, for Last-Modified. */
  lastModified: string | undefined;
  /** Since-responses by date. */
  sinceCache: BuildCache<JsonBody>;
  /** Search responses by query string. */
  searchCache: BuildCache<JsonBody>;
  /** searchReviews over this build, memoized by arguments (for the MCP tool). */
  search(args: unknown): SearchResponse;
  /** Serialized MCP tool results by tool and arguments. */
  toolResults: BuildCache<Buffer>;
}

/** The text of a published document of the build, by URL path; undefined if the build has none. */
export function readDocument(bundle: Bundle, urlPath: string): string | undefined {
  const entry = bundle.entries.get(urlPath);
  return entry ? readFileSync(path.join(bundle.dir, entry.file), "utf8") : undefined;
}

/**
 * Loads a build: its manifest and its reviews.json, checked against the manifest's sha256 (so a
 * file caught mid-swap is refused, never half-read), then indexed for search.
 */
export function loadIndexedBundle(distDir: string, options: { pages?: boolean; siteUrl?: string } = {}): LoadedBundle {
  const bundle = loadBundle(distDir, options);
  const entry = bundle.entries.get("/reviews.json");
  if (!entry) throw new BundleError(`${bundle.dir} has no /reviews.json in its manifest; rebuild it.`);
  const document = readReviewsDocument(path.join(bundle.dir, entry.file), entry.sha256);
  const index = buildReviewIndex(document, bundle.manifest.data_sha256);
  const searches = buildCache<SearchResponse>(500);
  return {
    bundle,
    index,
    business: document.business,
    aggregate: document.aggregate_rating,
    insights: JSON.parse(readDocument(bundle, "/insights.json") ?? "null") as InsightsDocument,
    lastModified: index.lastChanged ? httpDate(index.lastChanged, index.timeZone) : undefined,
    sinceCache: buildCache(1000, (value) => value.body.length),
    searchCache: buildCache(1000, (value) => value.body.length),
    search: (args) => searches.memo(JSON.stringify(args ?? {}), { context: () => searchReviews(index, args) }),
    toolResults: buildCache(1000, (value) => value.length),
  };
}
