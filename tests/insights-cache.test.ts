import { cpSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { afterAll, describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { serializeInsights } from "../src/insights/serialize.ts";
import type { ReviewAnalyzer } from "../src/insights/step/analyze-reviews.ts";
import { computeInsights } from "../src/insights/step/compute-insights.ts";

/** A project root of its own (lexicon and method files copied), so the cache starts cold. */
function freshRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), "insights-cache-"));
  cpSync("data/insights", path.join(root, "data/insights"), { recursive: true });
  return root;
}

const dataset = loadDataset("data");
const urls = siteUrls("https://reviews.test");
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

async function run(root: string, data: Dataset) {
  let calls = 0;
  const wrapAnalyzer = (inner: ReviewAnalyzer): ReviewAnalyzer => ({
    analyzeAll(reviews) {
      calls += reviews.length;
      return inner.analyzeAll(reviews);
    },
  });
  const result = await computeInsights({ root, dataDir: "data", dataset: data, urls, wrapAnalyzer });
  return { calls, result };
}

describe("per-review analysis cache", () => {
  const root = freshRoot();
  roots.push(root);
  const added: Review = {
    ...(dataset.reviews[0] as Review),
    id: "2026-11-21-cache-t",
    date: "2026-11-21",
    // About price only: the sample's editor FAQ quotes the punctuality figures, which must not move.
    text: "A review written for the cache test: the price was fair and the quote was clear.",
  };
  const cacheFile = path.join(root, ".cache/insights/analyses.json");

  it("analyses every distinct review once on a cold build", async () => {
    const { calls, result } = await run(root, dataset);
    const distinct = new Set(dataset.reviews.map((r) => `${r.rating}\0${r.text}`)).size;
    expect(calls).toBe(distinct);
    expect(result.analysed).toBe(distinct);
  });

  it("analyses exactly the one added review on the next build", async () => {
    const { calls } = await run(root, { ...dataset, reviews: [added, ...dataset.reviews] });
    expect(calls).toBe(1);
  });

  it("analyses nothing and leaves the cache file alone when nothing changed", async () => {
    const before = statSync(cacheFile).mtimeMs;
    const { calls } = await run(root, { ...dataset, reviews: [added, ...dataset.reviews] });
    expect(calls).toBe(0);
    expect(statSync(cacheFile).mtimeMs).toBe(before);
  });

  it("analyses a review again when its rating changes (the sarcasm guard reads it)", async () => {
    const { calls } = await run(root, { ...dataset, reviews: [{ ...added, rating: 1 }, ...dataset.reviews] });
    expect(calls).toBe(1);
  });

  it("publishes the same bytes from the cache as from a cold analysis", async () => {
    const data = { ...dataset, reviews: [added, ...dataset.reviews] };
    await run(root, data);
    const warm = await run(root, data);
    const coldRoot = freshRoot();
    roots.push(coldRoot);
    const cold = await run(coldRoot, data);
    expect(warm.calls).toBe(0);
    expect(serializeInsights(warm.result.document)).toBe(serializeInsights(cold.result.document));
  });
});
