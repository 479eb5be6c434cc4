import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeBaselineProject } from "./bench/baseline.ts";
import { benchInsights } from "./bench/insights.ts";

/**
 * `npm run bench:build`: builds synthetic data sets of 1k, 10k, 50k and 100k reviews (or --sizes) and
 * prints wall time and peak RSS for each, each build in a fresh process, then checks the whole build
 * (every page included) at 10k and 100k against the 60 s / 2 GB target.
 */
const { values } = parseArgs({ options: { sizes: { type: "string", default: "1000,10000,50000,100000" } } });
const sizes = values.sizes.split(",").map(Number);
const work = path.resolve(".cache/bench");
mkdirSync(work, { recursive: true });
const TARGET = { seconds: 60, MiB: 2048, sizes: [10_000, 100_000] };

const node = (args: string[], cwd = process.cwd()) =>
  spawnSync(process.execPath, ["--import", "tsx", ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });

const PHASES = ["load", "astro", "browser", "permalinks", "manifest"] as const;

interface Measured {
  reviews: number;
  files: number;
  pages: { browser: number; filters: number; permalinks: number };
  seconds: number;
  peakMiB: number;
  /** The phases above, and any a later build step adds (shown together as "other"). */
  timings: Record<string, number>;
  cards: { rendered: number; reused: number };
}

function lastJson<T>(run: ReturnType<typeof node>, what: string): T {
  if (run.status !== 0) throw new Error(`${what} failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as T;
}

const f = (n: number, width: number) => n.toFixed(2).padStart(width);
const whole: { size: number; process: number; build: number; peakMiB: number; pages: number }[] = [];
const cardRuns: { size: number; cold: Measured; warm: Measured; warmProcess: number }[] = [];
console.log(
  "reviews   files   pages   wall s  peak MiB | load  astro browser permalinks manifest other | documents s | baseline s  MiB | ratio s  MiB",
);
for (const size of sizes) {
  const data = path.join(work, `data-${size}`);
  if (!existsSync(path.join(data, "business.json"))) {
    const synth = node(["scripts/synth.ts", "--reviews", String(size), "--out", data, "--seed", "42"]);
    if (synth.status !== 0) throw new Error(synth.stderr);
  }
  const out = path.join(work, `dist-${size}`);
  rmSync(out, { recursive: true, force: true });
  // A fresh card cache: the first build of these data renders every card it writes.
  const cardCache = path.join(work, `og-cards-${size}`);
  rmSync(cardCache, { recursive: true, force: true });
  const started = performance.now();
  const run = node(["scripts/bench/build-once.ts", data, out, cardCache]);
  // The process's wall time is what `npm run build` costs: Node and tsx start-up included.
  const processSeconds = (performance.now() - started) / 1000;
  const result = lastJson<Measured>(run, `build of ${size}`);
  const baselineDir = path.join(work, `baseline-${size}`);
  rmSync(baselineDir, { recursive: true, force: true });
  writeBaselineProject(baselineDir, data);
  const baseline = lastJson<{ seconds: number; peakMiB: number }>(
    node([path.resolve("scripts/bench/baseline-once.ts")], baselineDir),
    `baseline of ${size}`,
  );
  rmSync(baselineDir, { recursive: true, force: true });
  const [load, astro, browser, permalinks, manifest] = PHASES.map((phase) => result.timings[phase] ?? 0) as number[];
  const other = Object.entries(result.timings)
    .filter(([phase]) => !(PHASES as readonly string[]).includes(phase))
    .reduce((sum, [, s]) => sum + s, 0);
  // "Documents" is what the baseline does too: load the data, render the documents and the pages that
  // list the reviews (the browser and its filter listings), list the files. Permalink pages (one file
  // per review) are shown apart.
  const documents = (load ?? 0) + (astro ?? 0) + (browser ?? 0) + (manifest ?? 0) + other;
  const pages = result.pages.browser + result.pages.filters + result.pages.permalinks;
  console.log(
    `${String(result.reviews).padStart(7)} ${String(result.files).padStart(7)} ${String(pages).padStart(7)} ${f(result.seconds, 8)} ${result.peakMiB.toFixed(0).padStart(9)} |` +
      `${f(load ?? 0, 5)} ${f(astro ?? 0, 6)} ${f(browser ?? 0, 7)} ${f(permalinks ?? 0, 10)} ${f(manifest ?? 0, 8)} ${f(other, 5)} | ${f(documents, 11)} |` +
      `${f(baseline.seconds, 11)} ${baseline.peakMiB.toFixed(0).padStart(4)} |` +
      `${f(documents / baseline.seconds, 8)} ${f(result.peakMiB / baseline.peakMiB, 4)}`,
  );
  if (TARGET.sizes.includes(size)) {
    whole.push({ size, process: processSeconds, build: result.seconds, peakMiB: result.peakMiB, pages });
    // The rebuild: the same data again, the cards taken from the cache.
    const again = performance.now();
    const warm = lastJson<Measured>(node(["scripts/bench/build-once.ts", data, out, cardCache]), `rebuild of ${size}`);
    cardRuns.push({ size, cold: result, warm, warmProcess: (performance.now() - again) / 1000 });
  }
  rmSync(out, { recursive: true, force: true });
  rmSync(cardCache, { recursive: true, force: true });
}

if (whole.length > 0) {
  console.log(
    `\nWhole build, every page included (browser, filter listings, permalinks), against ${TARGET.seconds} s and ${TARGET.MiB} MiB:`,
  );
  console.log("reviews   pages  process s  build s  peak MiB | target");
  for (const w of whole) {
    const met = w.process <= TARGET.seconds && w.peakMiB <= TARGET.MiB;
    console.log(
      `${String(w.size).padStart(7)} ${String(w.pages).padStart(7)} ${f(w.process, 10)} ${f(w.build, 8)} ${w.peakMiB.toFixed(0).padStart(9)} | ${met ? "met" : "MISSED"}`,
    );
  }
}

if (cardRuns.length > 0) {
  console.log(
    "\nThe reviews' own social cards (the newest OWN_CARDS reviews), first build and rebuild with the card cache:",
  );
  console.log("reviews | first: cards rendered  cards s  build s | rebuild: cards reused  cards s  process s  build s");
  for (const { size, cold, warm, warmProcess } of cardRuns) {
    console.log(
      `${String(size).padStart(7)} | ${String(cold.cards.rendered).padStart(21)} ${f(cold.timings.cards ?? 0, 8)} ${f(cold.seconds, 8)} |` +
        ` ${String(warm.cards.reused).padStart(20)} ${f(warm.timings.cards ?? 0, 8)} ${f(warmProcess, 10)} ${f(warm.seconds, 8)}`,
    );
  }
}

// Analysis throughput and the insights step of a rebuild after one added review at 100k reviews.
console.log("");
benchInsights();
