import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { BusinessSchema } from "@riverbend/shared/schemas/business.ts";
import { compareNewestFirst, type Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { loadDataset } from "../../src/data/load-dataset.ts";
import { computeInsights } from "../../src/insights/step/compute-insights.ts";
import { generateReviews } from "../../src/synth/generate.ts";

/** One run of the insights step in a process of its own (a build is one process too). */
interface StepRun {
  reviews: number;
  /** Reviews analysed in this run (the rest came from the cache). */
  analysed: number;
  /** Wall seconds of the per-review step (lexicon, cache, analysis, topic phrases) and of the whole step. */
  stepSeconds: number;
  totalSeconds: number;
  cpuSeconds: number;
  peakMiB: number;
  /** 1-minute load average when the run ended: the machine is shared, so figures are only comparable with it. */
  load: number;
}

export interface InsightsBench {
  /** Cold per-review step at `throughputReviews` on this thread alone: synthetic reviews (short) and sample-length ones. */
  coldSynthetic: StepRun;
  coldSampleLength: StepRun;
  /** Sample-length reviews at `largeReviews`, on this thread alone and with a worker (the build's default). */
  largeOneThread: StepRun;
  largeTwoThreads: StepRun;
  /** Cold step over the data set, then a rebuild after adding one review (warm cache). */
  coldDataset: StepRun;
  rebuild: StepRun;
  cacheMiB: number;
}

type Kind = "synthetic" | "sample";

/**
 * Distinct reviews: synthetic ones (src/synth, ~160 characters) or the sample's and the development
 * set's texts cycled (~350 characters, real length), each made distinct by a job number: repeated
 * texts would flatter a content-hash cache.
 */
function reviewsFor(kind: Kind, count: number, seed: number): { business: Dataset["business"]; reviews: Review[] } {
  const business = BusinessSchema.parse(JSON.parse(readFileSync("data/business.json", "utf8")));
  const made = [...generateReviews(business, { reviews: count, seed, endDate: "2026-11-01", years: 5 })];
  let texts = made.map((r) => r.text);
  if (kind === "sample") {
    const dev = readFileSync("tests/fixtures/insights/dev.jsonl", "utf8").trim().split("\n");
    const real = [...loadDataset("data").reviews.map((r) => r.text), ...dev.map((l) => JSON.parse(l).text as string)];
    texts = made.map((_, i) => real[i % real.length] as string);
  }
  const reviews = made.map((review, i) => ({ ...review, text: `${texts[i]} Job ${i + 1}.` }));
  return { business, reviews: reviews.sort(compareNewestFirst) };
}

/**
 * In the child: the step over `count` reviews (+1 when `plusOne`) in `root`, whose cache may be warm,
 * on `threads` threads (2: this one and a worker, as a build on this machine does).
 */
async function runStep(root: string, kind: Kind, count: number, plusOne: boolean, threads: number): Promise<StepRun> {
  const { business, reviews } = reviewsFor(kind, count + 1, 42);
  const list = plusOne ? reviews : reviews.slice(1);
  const urls = siteUrls("https://reviews.example.com");
  const started = performance.now();
  const cpu = process.cpuUsage();
  const dataset = { business, reviews: list, removed: [], sourceSha256: "" };
  const result = await computeInsights({ root, dataDir: root, dataset, urls, workers: { threads } });
  const { user, system } = process.cpuUsage(cpu);
  return {
    reviews: list.length,
    analysed: result.analysed,
    stepSeconds: result.seconds.analysis,
    totalSeconds: (performance.now() - started) / 1000,
    cpuSeconds: (user + system) / 1e6,
    peakMiB: process.resourceUsage().maxRSS / 1024,
    load: loadavg()[0] ?? 0,
  };
}

function child(root: string, kind: Kind, count: number, plusOne: boolean, threads = 2): StepRun {
  const run = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      import.meta.filename,
      root,
      kind,
      String(count),
      plusOne ? "plus-one" : "cold",
      String(threads),
    ],
    { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`insights benchmark failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as StepRun;
}

function freshRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), "bench-insights-"));
  cpSync("data/insights", path.join(root, "data/insights"), { recursive: true });
  return root;
}

/** Each run in a fresh process (cold wink, peak RSS its own), and prints the figures. */
export function benchInsights(
  throughputReviews = 10_000,
  datasetReviews = 100_000,
  largeReviews = 50_000,
): InsightsBench {
  const roots: string[] = [];
  const root = () => {
    roots.push(freshRoot());
    return roots.at(-1) as string;
  };
  try {
    const coldSynthetic = child(root(), "synthetic", throughputReviews, false, 1);
    const coldSampleLength = child(root(), "sample", throughputReviews, false, 1);
    const largeOneThread = child(root(), "sample", largeReviews, false, 1);
    const largeTwoThreads = child(root(), "sample", largeReviews, false, 2);
    const big = root();
    const coldDataset = child(big, "synthetic", datasetReviews, false);
    const rebuild = child(big, "synthetic", datasetReviews, true);
    const cacheMiB = readFileSync(path.join(big, ".cache/insights/analyses.json")).length / 1024 / 1024;
    const rate = (r: StepRun) => `${(r.analysed / r.stepSeconds).toFixed(0)} reviews/s wall`;
    const f = (n: number) => n.toFixed(2);
    const tail = (r: StepRun) => `peak RSS ${r.peakMiB.toFixed(0)} MiB, load average ${r.load.toFixed(2)}`;
    const cold = (what: string, r: StepRun) =>
      console.log(
        `insights: cold per-review step, ${r.analysed} ${what}: ${rate(r)} (${f(r.stepSeconds)} s wall, ${f(r.cpuSeconds)} s CPU); ${tail(r)}`,
      );
    cold("synthetic reviews (~160 chars), 1 thread", coldSynthetic);
    cold("sample-length reviews (~350 chars), 1 thread", coldSampleLength);
    cold("sample-length reviews, 1 thread", largeOneThread);
    cold("sample-length reviews, 2 threads (the build's default)", largeTwoThreads);
    cold("synthetic reviews, 2 threads", coldDataset);
    console.log(
      `insights: rebuild after adding 1 review to ${datasetReviews}: ${f(rebuild.totalSeconds)} s wall (per-review step ${f(rebuild.stepSeconds)} s, ${rebuild.analysed} analysed), ${f(rebuild.cpuSeconds)} s CPU; cache ${cacheMiB.toFixed(1)} MiB; ${tail(rebuild)}`,
    );
    return { coldSynthetic, coldSampleLength, largeOneThread, largeTwoThreads, coldDataset, rebuild, cacheMiB };
  } finally {
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const [root, kind, count, mode, threads] = process.argv.slice(2);
  if (root && count) {
    console.log(JSON.stringify(await runStep(root, kind as Kind, Number(count), mode === "plus-one", Number(threads))));
  } else {
    benchInsights(...(process.argv.slice(2).map(Number) as [number?, number?, number?]));
  }
}
