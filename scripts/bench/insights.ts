import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { compareNewestFirst, type Dataset } from "../../src/data/dataset.ts";
import { createAnalyzer, loadLexicon } from "../../src/insights/analysis/analyze-review.ts";
import { computeInsights } from "../../src/insights/step/compute-insights.ts";
import { extractPhrases } from "../../src/insights/topics/phrases.ts";
import { BusinessSchema } from "../../src/schemas/business.ts";
import type { Review } from "../../src/schemas/review.ts";
import { siteUrls } from "../../src/site/urls.ts";
import { generateReviews } from "../../src/synth/generate.ts";

export interface InsightsBench {
  /** Reviews per second of the analyser alone, and of the whole per-review step (analyser + topic phrases). */
  analyzerPerSecond: number;
  stepPerSecond: number;
  throughputReviews: number;
  datasetReviews: number;
  /** The insights step over the data set with a cold cache (every review analysed). */
  coldSeconds: number;
  /** The insights step after adding one review, cache warm: split into analysis (cache load, lookups) and aggregation. */
  rebuildSeconds: number;
  /** CPU seconds (user + system) of that rebuild: comparable across runs on a busy machine, unlike wall time. */
  rebuildCpuSeconds: number;
  rebuildAnalysisSeconds: number;
  rebuildAggregationSeconds: number;
  rebuildAnalysed: number;
  cacheMiB: number;
  peakMiB: number;
}

/**
 * Synthetic reviews (src/synth), each made distinct by a job number: the generator assembles texts
 * from a few parts, and repeated texts would flatter a content-hash cache.
 */
function syntheticReviews(count: number, seed: number): { business: Dataset["business"]; reviews: Review[] } {
  const business = BusinessSchema.parse(JSON.parse(readFileSync("data/business.json", "utf8")));
  const reviews = [...generateReviews(business, { reviews: count, seed, endDate: "2026-11-01", years: 5 })].map(
    (review, i) => ({ ...review, text: `${review.text} Job ${i + 1}.` }),
  );
  return { business, reviews: reviews.sort(compareNewestFirst) };
}

function measure(throughputReviews: number, datasetReviews: number): InsightsBench {
  const { lexicon } = loadLexicon();
  const analyzer = createAnalyzer(lexicon);
  const opinion = new Set(Object.keys(lexicon.valence.words).filter((w) => !w.includes(" ")));
  const sample = syntheticReviews(throughputReviews, 7).reviews;
  // Model load and JIT warm-up: one untimed pass over the sample.
  for (const r of sample) extractPhrases(r.text, analyzer.analyze(r.text, r.rating), opinion);
  let started = performance.now();
  for (const r of sample) analyzer.analyze(r.text, r.rating);
  const analyzerPerSecond = sample.length / ((performance.now() - started) / 1000);
  started = performance.now();
  for (const r of sample) extractPhrases(r.text, analyzer.analyze(r.text, r.rating), opinion);
  const stepPerSecond = sample.length / ((performance.now() - started) / 1000);

  const root = mkdtempSync(path.join(tmpdir(), "bench-insights-"));
  try {
    cpSync("data/insights", path.join(root, "data/insights"), { recursive: true });
    const { business, reviews } = syntheticReviews(datasetReviews + 1, 42);
    const rest = reviews.slice(1);
    const urls = siteUrls("https://reviews.example.com");
    const step = (list: readonly Review[]) =>
      computeInsights({ root, dataDir: root, dataset: { business, reviews: list, sourceSha256: "" }, urls });
    started = performance.now();
    step(rest);
    const coldSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const cpu = process.cpuUsage();
    const rebuild = step(reviews);
    const rebuildSeconds = (performance.now() - started) / 1000;
    const { user, system } = process.cpuUsage(cpu);
    const cacheFile = path.join(root, ".cache/insights/analyses.json");
    return {
      analyzerPerSecond,
      stepPerSecond,
      throughputReviews,
      datasetReviews,
      coldSeconds,
      rebuildSeconds,
      rebuildCpuSeconds: (user + system) / 1e6,
      rebuildAnalysisSeconds: rebuild.seconds.analysis,
      rebuildAggregationSeconds: rebuild.seconds.aggregation,
      rebuildAnalysed: rebuild.analysed,
      cacheMiB: readFileSync(cacheFile).length / 1024 / 1024,
      peakMiB: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Runs the measurement in a fresh process, so peak RSS is the insights step's alone, and prints it. */
export function benchInsights(throughputReviews = 10_000, datasetReviews = 100_000): InsightsBench {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", import.meta.filename, String(throughputReviews), String(datasetReviews)],
    { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`insights benchmark failed:\n${run.stderr}`);
  const result = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as InsightsBench;
  const f = (n: number) => n.toFixed(2);
  console.log(
    `insights: analyser ${result.analyzerPerSecond.toFixed(0)} reviews/s, per-review step ${result.stepPerSecond.toFixed(0)} reviews/s (${result.throughputReviews} synthetic reviews, cold)`,
  );
  console.log(
    `insights: ${result.datasetReviews} reviews: cold step ${f(result.coldSeconds)} s; +1 review with a warm cache ${f(result.rebuildSeconds)} s wall, ${f(result.rebuildCpuSeconds)} s CPU ` +
      `(analysis/cache ${f(result.rebuildAnalysisSeconds)} s, ${result.rebuildAnalysed} analysed; aggregation ${f(result.rebuildAggregationSeconds)} s); ` +
      `cache ${result.cacheMiB.toFixed(1)} MiB; peak RSS ${result.peakMiB.toFixed(0)} MiB`,
  );
  return result;
}

if (process.argv[1] === import.meta.filename) {
  const [throughput, dataset] = process.argv.slice(2).map(Number);
  console.log(JSON.stringify(measure(throughput ?? 10_000, dataset ?? 100_000)));
}
