import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeBaselineProject } from "./bench/baseline.ts";

/**
 * `npm run bench:build`: builds synthetic data sets of 1k, 10k, 50k and 100k reviews (or --sizes) and
 * prints wall time and peak RSS for each, each build in a fresh process.
 */
const { values } = parseArgs({ options: { sizes: { type: "string", default: "1000,10000,50000,100000" } } });
const sizes = values.sizes.split(",").map(Number);
const work = path.resolve(".cache/bench");
mkdirSync(work, { recursive: true });

const node = (args: string[], cwd = process.cwd()) =>
  spawnSync(process.execPath, ["--import", "tsx", ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });

interface Measured {
  reviews: number;
  files: number;
  seconds: number;
  peakMiB: number;
  timings: { load: number; astro: number; browser: number; permalinks: number; manifest: number };
}

function lastJson<T>(run: ReturnType<typeof node>, what: string): T {
  if (run.status !== 0) throw new Error(`${what} failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as T;
}

console.log(
  "reviews   files   wall s  peak MiB | load  astro browser permalinks manifest | documents s | baseline s  MiB | ratio s  MiB",
);
for (const size of sizes) {
  const data = path.join(work, `data-${size}`);
  if (!existsSync(path.join(data, "business.json"))) {
    const synth = node(["scripts/synth.ts", "--reviews", String(size), "--out", data, "--seed", "42"]);
    if (synth.status !== 0) throw new Error(synth.stderr);
  }
  const out = path.join(work, `dist-${size}`);
  const result = lastJson<Measured>(node(["scripts/bench/build-once.ts", data, out]), `build of ${size}`);
  const baselineDir = path.join(work, `baseline-${size}`);
  rmSync(baselineDir, { recursive: true, force: true });
  writeBaselineProject(baselineDir, data);
  const baseline = lastJson<{ seconds: number; peakMiB: number }>(
    node([path.resolve("scripts/bench/baseline-once.ts")], baselineDir),
    `baseline of ${size}`,
  );
  rmSync(baselineDir, { recursive: true, force: true });
  const { load, astro, browser, permalinks, manifest } = result.timings;
  // "Documents" is what the baseline does too: load the data, render the documents and the pages that
  // list the reviews, list the files. Permalink pages (one file per review) are shown apart.
  const documents = load + astro + browser + manifest;
  const f = (n: number, width: number) => n.toFixed(2).padStart(width);
  console.log(
    `${String(result.reviews).padStart(7)} ${String(result.files).padStart(7)} ${f(result.seconds, 8)} ${result.peakMiB.toFixed(0).padStart(9)} |` +
      `${f(load, 5)} ${f(astro, 6)} ${f(browser, 7)} ${f(permalinks, 10)} ${f(manifest, 8)} | ${f(documents, 11)} |` +
      `${f(baseline.seconds, 11)} ${baseline.peakMiB.toFixed(0).padStart(4)} |` +
      `${f(documents / baseline.seconds, 8)} ${f(result.peakMiB / baseline.peakMiB, 4)}`,
  );
  rmSync(out, { recursive: true, force: true });
}
