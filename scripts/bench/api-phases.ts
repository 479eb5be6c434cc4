import { writeFileSync } from "node:fs";
import path from "node:path";
import { builtDataSet, SITE_URL } from "./api-data.ts";
import { httpGet, type LoadOptions, type LoadResult, measure } from "./api-load.ts";
import { containerNodeArgs, memoryMiB, runScript, type ServerProcess, startServer } from "./api-process.ts";
import { dayBefore, searchPaths } from "./shared-filters.ts";

/**
 * bench:api's measurements, in the order they run: the load phases on 10k reviews (the ceiling, the
 * search, the 304 revalidation, each with request logging on and off), start-up, memory and a burst
 * of searches on 100k reviews, and the in-process loads that break the start-up and a search down.
 */

export const SEARCH_REVIEWS = 10_000;
export const STARTUP_REVIEWS = 100_000;
const STARTUP_RUNS = 3;
export const BURST_SECONDS = 3;

type Memory = { rss: number; peak: number };

/** What api-load-once.ts reports: the sidecar's own load of the 100k build, in a fresh process. */
export interface OwnLoad {
  reviewsJsonMiB: number;
  importedMs: number;
  loadMs: number;
  steps: { manifestMs: number; readMs: number; indexMs: number };
  manifestEntries: number;
  rss: { before: number; afterLoad: number };
  retainedMiB: { manifest: number; reviews: number; index: number };
}

/** What api-breakdown-once.ts reports: where a search's time goes, per URL of the mix. */
export interface Breakdown {
  rows: {
    path: string;
    total: number;
    bytes: number;
    us: { validate: number; fingerprint: number; search: number; stringify: number; etag: number };
  }[];
  mixUs: number;
  allocatedKiB: number;
}

export interface ApiMeasurements {
  paths: string[];
  /** Response sizes of the search URLs, and the median one the ceiling serves. */
  probeBytes: number[];
  typicalBytes: number;
  /** Every load phase, in the order run: a, b, c, bSilent, cSilent, then the burst. */
  results: LoadResult[];
  a: LoadResult;
  b: LoadResult;
  c: LoadResult;
  bSilent: LoadResult;
  cSilent: LoadResult;
  burst: LoadResult | undefined;
  memory10k: Memory;
  startups: number[];
  importsOnlyMs: number;
  memoryStarted: Memory;
  memoryBurst: Memory;
  own: OwnLoad;
  breakdown: Breakdown;
  /** Wrong statuses, errors or empty searches: the numbers cannot be trusted. */
  problems: string[];
}

/** Where the sidecars run, and how they are loaded. */
interface Bench {
  work: string;
  load: LoadOptions;
  nodeArgs: string[];
  problems: string[];
}

const sidecarEnv = (work: string, distDir: string, logLevel: string): Record<string, string> => ({
  PORT: "0",
  HOST: "127.0.0.1",
  DIST_DIR: distDir,
  SITE_URL,
  LOG_LEVEL: logLevel,
  // As deployed: the container sidecar serves the API, a CDN serves the pages.
  SERVE_STATIC: "false",
  // The WebSub hub's SQLite file: kept out of the repository's var/ and away from other sidecars.
  STATE_DIR: path.join(work, "api-state"),
});
const startSidecar = (bench: Bench, distDir: string, logLevel: string) =>
  startServer("sidecar", "sidecar/src/main.ts", [], sidecarEnv(bench.work, distDir, logLevel), 60_000, bench.nodeArgs);

/** Responses must be exactly the expected status: anything else makes the numbers meaningless. */
function expectOnly(problems: string[], result: LoadResult, status: string) {
  const other = Object.entries(result.statusCodes).filter(([code]) => code !== status);
  if (result.errors > 0 || result.timeouts > 0 || other.length > 0 || !result.statusCodes[status]) {
    problems.push(
      `${result.label}: expected only ${status}, got ${JSON.stringify(result.statusCodes)}, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
}

/** 10k reviews, LOG_LEVEL=info (as in production): probe sizes, then (a), (b), (c); then (b), (c) silent. */
async function searchPhases(bench: Bench, dist10k: string) {
  const { work, load, problems } = bench;
  let sidecar: ServerProcess = await startSidecar(bench, dist10k, "info");
  const newestPage = await httpGet(`${sidecar.url}/api/reviews/search?limit=1`);
  const newest = (JSON.parse(newestPage.body.toString("utf8")) as { reviews: { date: string }[] }).reviews[0]?.date;
  if (!newest) throw new Error("the sidecar returned no reviews");
  const paths = searchPaths(newest);
  const probes = [];
  for (const p of paths) {
    const response = await httpGet(`${sidecar.url}${p}`);
    if (response.status !== 200) throw new Error(`${p} answered ${response.status}: ${response.body}`);
    const total = (JSON.parse(response.body.toString("utf8")) as { total: number }).total;
    if (total === 0) problems.push(`${p} matches no review in the synthetic data`);
    probes.push({ path: p, bytes: response.body.length, total, body: response.body });
  }
  const typical = [...probes].sort((x, y) => x.bytes - y.bytes)[Math.floor((probes.length - 1) / 2)];
  if (!typical) throw new Error("no search responses");
  const bodyFile = path.join(work, "api-typical-search.json");
  writeFileSync(bodyFile, typical.body);

  const ceiling = await startServer("ceiling", "scripts/bench/api-ceiling.ts", [bodyFile], {});
  const a = await measure("(a) ceiling: bare node:http", ceiling, [{ path: "/" }], load);
  await ceiling.stop();
  expectOnly(problems, a, "200");

  // A fresh list for every phase: autocannon writes onto the request objects it is given.
  const searches = () => paths.map((p) => ({ path: p }));
  const b = await measure("(b) search, LOG_LEVEL=info", sidecar, searches(), load);
  expectOnly(problems, b, "200");

  const sincePath = `/api/reviews/since/${dayBefore(newest, 30)}`;
  const since = await httpGet(`${sidecar.url}${sincePath}`);
  const etag = since.headers.etag;
  if (since.status !== 200 || typeof etag !== "string") throw new Error(`${sincePath} answered ${since.status}`);
  const revalidated = await httpGet(`${sidecar.url}${sincePath}`, { "If-None-Match": etag });
  if (revalidated.status !== 304) problems.push(`${sincePath} with If-None-Match answered ${revalidated.status}`);
  const revalidations = () => [{ path: sincePath, headers: { "If-None-Match": etag } }];
  const c = await measure("(c) since 304, LOG_LEVEL=info", sidecar, revalidations(), load);
  expectOnly(problems, c, "304");
  const memory10k = memoryMiB(sidecar.pid);
  await sidecar.stop();

  // The same load with logging off, to make the cost of request logging visible.
  sidecar = await startSidecar(bench, dist10k, "silent");
  const bSilent = await measure("(b) search, LOG_LEVEL=silent", sidecar, searches(), load);
  expectOnly(problems, bSilent, "200");
  const cSilent = await measure("(c) since 304, LOG_LEVEL=silent", sidecar, revalidations(), load);
  expectOnly(problems, cSilent, "304");
  await sidecar.stop();
  const probeBytes = probes.map((p) => p.bytes);
  return { paths, probeBytes, typicalBytes: typical.bytes, a, b, c, bSilent, cSilent, memory10k };
}

/** 100k reviews: start-up time, memory, a burst of searches. */
async function startupPhases(bench: Bench, dist100k: string, paths: string[]) {
  const importsOnly = await runScript(
    "sidecar/src/main.ts",
    [],
    sidecarEnv(bench.work, path.join(bench.work, "api-no-build"), "info"),
  );
  const startups: number[] = [];
  let memoryStarted: Memory = { rss: Number.NaN, peak: Number.NaN };
  let memoryBurst: Memory = { rss: Number.NaN, peak: Number.NaN };
  let burst: LoadResult | undefined;
  for (let run = 1; run <= STARTUP_RUNS; run++) {
    const big = await startSidecar(bench, dist100k, "info");
    startups.push(big.listeningMs);
    if (run === STARTUP_RUNS) {
      memoryStarted = memoryMiB(big.pid);
      burst = await measure(
        `(b) search, ${STARTUP_REVIEWS / 1000}k reviews, ${BURST_SECONDS} s`,
        big,
        paths.map((p) => ({ path: p })),
        { ...bench.load, duration: BURST_SECONDS, warmup: 0 },
      );
      expectOnly(bench.problems, burst, "200");
      memoryBurst = memoryMiB(big.pid);
    }
    await big.stop();
  }
  return { importsOnlyMs: importsOnly.ms, startups, memoryStarted, memoryBurst, burst };
}

/** Runs a one-shot measuring script and parses the JSON on its last line of output. */
async function lastJsonLine<T>(script: string, args: string[], nodeOptions: string): Promise<T> {
  const run = await runScript(script, args, { NODE_OPTIONS: nodeOptions });
  if (run.code !== 0) throw new Error(`${path.basename(script, ".ts")} failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as T;
}

export async function runPhases(work: string, load: LoadOptions, rebuild: boolean): Promise<ApiMeasurements> {
  const bench: Bench = { work, load, nodeArgs: containerNodeArgs(), problems: [] };
  const dist10k = await builtDataSet(work, SEARCH_REVIEWS, rebuild);
  const dist100k = await builtDataSet(work, STARTUP_REVIEWS, rebuild);
  const search = await searchPhases(bench, dist10k);
  const startup = await startupPhases(bench, dist100k, search.paths);
  const own = await lastJsonLine<OwnLoad>("scripts/bench/api-load-once.ts", [dist100k], "--expose-gc");
  const breakdown = await lastJsonLine<Breakdown>(
    "scripts/bench/api-breakdown-once.ts",
    [dist10k, JSON.stringify(search.paths)],
    "--expose-gc --max-semi-space-size=64",
  );
  const { a, b, c, bSilent, cSilent } = search;
  const results = [a, b, c, bSilent, cSilent, ...(startup.burst ? [startup.burst] : [])];
  return { ...search, ...startup, results, own, breakdown, problems: bench.problems };
}
