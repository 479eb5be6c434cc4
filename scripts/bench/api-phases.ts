import { writeFileSync } from "node:fs";
import path from "node:path";
import type { RequestSpec } from "autocannon";
import { builtDataSet, SITE_URL } from "./api-data.ts";
import { httpGet, type LoadOptions, type LoadResult, measure } from "./api-load.ts";
import { containerNodeArgs, memoryMiB, type ServerProcess, startServer } from "./api-process.ts";
import { newQueryPaths } from "./api-queries.ts";
import { dayBefore, searchPaths } from "./shared-filters.ts";

/**
 * bench:api's measurements, in the order they run: on 10k reviews the bare ceiling, search over a
 * fixed mix, search where every request is a query not asked before, and since 304 (beside the bare
 * ceiling, a minimal Express 5 app sending the same body: Express's own floor); the new-query
 * load again on 1k and 100k reviews; then, on 100k, start-up and the RSS after 100,000 distinct queries.
 */

export const SIZES = [1_000, 10_000, 100_000] as const;
export const MAIN_SIZE = 10_000;
export const MEMORY_SIZE = 100_000;
export const DISTINCT_QUERIES = 100_000;

type Memory = { rss: number; peak: number };

export interface ApiMeasurements {
  typicalBytes: number;
  ceiling: LoadResult;
  /** A minimal Express 5 app sending the ceiling's body: the floor of Express itself. */
  expressFloor: LoadResult;
  fixedMix: LoadResult;
  newQueries: LoadResult;
  since304: LoadResult;
  /** The new-query load per data size. */
  growth: { size: number; result: LoadResult }[];
  startupMs: number;
  memoryStarted: Memory;
  memoryAfterQueries: Memory;
  distinctQueries: LoadResult;
  /** Wrong statuses, errors or empty searches: the numbers cannot be trusted. */
  problems: string[];
}

interface Bench {
  work: string;
  load: LoadOptions;
  nodeArgs: string[];
  problems: string[];
}

const sidecarEnv = (work: string, distDir: string): Record<string, string> => ({
  PORT: "0",
  HOST: "127.0.0.1",
  DIST_DIR: distDir,
  SITE_URL,
  // As in production: an access-log line per request.
  LOG_LEVEL: "info",
  // The load comes from one address: the per-client read limit would measure itself.
  READ_RATE_LIMIT_PER_MINUTE: "0",
  // As deployed: the container sidecar serves the API, a CDN serves the pages.
  SERVE_STATIC: "false",
  STATE_DIR: path.join(work, "api-state"),
});
const startSidecar = (bench: Bench, distDir: string) =>
  startServer("sidecar", "packages/server/src/main.ts", [], sidecarEnv(bench.work, distDir), 60_000, bench.nodeArgs);

/** Responses must be exactly the expected status: anything else makes the numbers meaningless. */
function expectOnly(problems: string[], result: LoadResult, status: string) {
  const other = Object.entries(result.statusCodes).filter(([code]) => code !== status);
  if (result.errors > 0 || result.timeouts > 0 || other.length > 0 || !result.statusCodes[status]) {
    problems.push(
      `${result.label}: expected only ${status}, got ${JSON.stringify(result.statusCodes)}, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
}

/** One request spec that asks the next path of `paths` on every request, from any connection. */
function everyRequestNew(paths: readonly string[]): { requests: () => RequestSpec[]; used: () => number } {
  let next = 0;
  const requests = () => [
    { setupRequest: (request: RequestSpec) => ({ ...request, path: paths[next++ % paths.length] as string }) },
  ];
  return { requests, used: () => next };
}

async function newQueryLoad(bench: Bench, sidecar: ServerProcess, dist: string, size: number, load: LoadOptions) {
  const paths = newQueryPaths(dist, 400_000, size);
  const fresh = everyRequestNew(paths);
  const result = await measure(`search, new queries, ${size / 1000}k`, sidecar, fresh.requests(), load);
  if (fresh.used() > paths.length) bench.problems.push(`${result.label}: more requests than distinct queries`);
  expectOnly(bench.problems, result, "200");
  return result;
}

/** 10k reviews: the ceiling, the fixed mix, new queries, since 304. */
async function mainPhases(bench: Bench, dist: string) {
  const { work, load, problems } = bench;
  const sidecar = await startSidecar(bench, dist);
  const newestPage = await httpGet(`${sidecar.url}/api/reviews/search?limit=1`);
  const newest = (JSON.parse(newestPage.body.toString("utf8")) as { reviews: { date: string }[] }).reviews[0]?.date;
  if (!newest) throw new Error("the sidecar returned no reviews");
  const paths = searchPaths(newest);
  const probes = [];
  for (const p of paths) {
    const response = await httpGet(`${sidecar.url}${p}`);
    if (response.status !== 200) throw new Error(`${p} answered ${response.status}: ${response.body}`);
    if ((JSON.parse(response.body.toString("utf8")) as { total: number }).total === 0) {
      problems.push(`${p} matches no review in the synthetic data`);
    }
    probes.push(response.body);
  }
  const typical = [...probes].sort((x, y) => x.length - y.length)[Math.floor((probes.length - 1) / 2)];
  if (!typical) throw new Error("no search responses");
  const bodyFile = path.join(work, "api-typical-search.json");
  writeFileSync(bodyFile, typical);

  const bare = await startServer("ceiling", "scripts/bench/api-ceiling.ts", [bodyFile], {});
  const ceiling = await measure("bare node:http ceiling", bare, [{ path: "/" }], load);
  await bare.stop();
  expectOnly(problems, ceiling, "200");
  const floor = await startServer("express floor", "scripts/bench/api-express-floor.ts", [bodyFile], {});
  const expressFloor = await measure("Express 5, prepared buffer", floor, [{ path: "/" }], load);
  await floor.stop();
  expectOnly(problems, expressFloor, "200");

  // A fresh list for every phase: autocannon writes onto the request objects it is given.
  const fixedMix = await measure(
    "search, fixed mix of 10",
    sidecar,
    paths.map((p) => ({ path: p })),
    load,
  );
  expectOnly(problems, fixedMix, "200");
  const newQueries = await newQueryLoad(bench, sidecar, dist, MAIN_SIZE, load);

  const sincePath = `/api/reviews/since/${dayBefore(newest, 30)}`;
  const since = await httpGet(`${sidecar.url}${sincePath}`);
  const etag = since.headers.etag;
  if (since.status !== 200 || typeof etag !== "string") throw new Error(`${sincePath} answered ${since.status}`);
  const revalidations = [{ path: sincePath, headers: { "If-None-Match": etag } }];
  const since304 = await measure("since, If-None-Match (304)", sidecar, revalidations, load);
  expectOnly(problems, since304, "304");
  await sidecar.stop();
  return { typicalBytes: typical.length, ceiling, expressFloor, fixedMix, newQueries, since304 };
}

/** 100k reviews: start-up, RSS before and after DISTINCT_QUERIES distinct queries (as fast as it answers). */
async function memoryPhase(bench: Bench, dist: string) {
  const sidecar = await startSidecar(bench, dist);
  const memoryStarted = memoryMiB(sidecar.pid);
  const paths = newQueryPaths(dist, DISTINCT_QUERIES, 7);
  const fresh = everyRequestNew(paths);
  const distinctQueries = await measure(`${DISTINCT_QUERIES} distinct queries, 100k`, sidecar, fresh.requests(), {
    ...bench.load,
    warmup: 0,
    duration: 0,
    amount: DISTINCT_QUERIES,
  });
  expectOnly(bench.problems, distinctQueries, "200");
  const memoryAfterQueries = memoryMiB(sidecar.pid);
  await sidecar.stop();
  return { startupMs: sidecar.listeningMs, memoryStarted, memoryAfterQueries, distinctQueries };
}

export async function runPhases(work: string, load: LoadOptions, rebuild: boolean): Promise<ApiMeasurements> {
  const bench: Bench = { work, load, nodeArgs: containerNodeArgs(), problems: [] };
  const dists = new Map<number, string>();
  for (const size of SIZES) dists.set(size, await builtDataSet(work, size, rebuild));
  const distOf = (size: number) => dists.get(size) as string;
  const main = await mainPhases(bench, distOf(MAIN_SIZE));
  const growth = [{ size: MAIN_SIZE, result: main.newQueries }];
  for (const size of SIZES.filter((s) => s !== MAIN_SIZE)) {
    const sidecar = await startSidecar(bench, distOf(size));
    growth.push({ size, result: await newQueryLoad(bench, sidecar, distOf(size), size, load) });
    await sidecar.stop();
  }
  growth.sort((a, b) => a.size - b.size);
  const memory = await memoryPhase(bench, distOf(MEMORY_SIZE));
  return { ...main, growth, ...memory, problems: bench.problems };
}
