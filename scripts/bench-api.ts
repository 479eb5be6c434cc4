import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { builtDataSet, SITE_URL } from "./bench/api-data.ts";
import { httpGet, type LoadOptions, type LoadResult, measure } from "./bench/api-load.ts";
import {
  containerNodeArgs,
  memoryMiB,
  runScript,
  type ServerProcess,
  startServer,
  stopAll,
} from "./bench/api-process.ts";

/**
 * `npm run bench:api`: loads the sidecar on loopback with autocannon, against a bare node:http ceiling
 * serving a body of the same size, and checks start-up time and memory with 100k reviews. Every
 * server runs in a child process of its own, its output written to a file; all are stopped on exit.
 */
const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    rebuild: { type: "boolean", default: false },
  },
});
const load: LoadOptions = {
  connections: Number(values.connections),
  duration: Number(values.duration),
  warmup: Number(values.warmup),
};
const SEARCH_REVIEWS = 10_000;
const STARTUP_REVIEWS = 100_000;
const STARTUP_RUNS = 3;
const BURST_SECONDS = 3;
const work = path.resolve(".cache/bench");
mkdirSync(path.join(work, "api-state"), { recursive: true });

const sidecarEnv = (distDir: string, logLevel: string): Record<string, string> => ({
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
const NODE_ARGS = containerNodeArgs();
const startSidecar = (distDir: string, logLevel: string) =>
  startServer("sidecar", "sidecar/src/main.ts", [], sidecarEnv(distDir, logLevel), 60_000, NODE_ARGS);

const dayBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** A typical filter mix; every connection rotates through all of them. */
function searchPaths(newest: string): string[] {
  const search = "/api/reviews/search";
  return [
    `${search}?rating=5&limit=20`,
    `${search}?min_rating=4&since=${dayBefore(newest, 365)}&limit=20`,
    `${search}?query=late&limit=20`,
    `${search}?query=quote&min_rating=4`,
    `${search}?query=window&sort=highest&limit=20`,
    `${search}?mentions_technician=Dana&limit=20`,
    `${search}?mentions_technician=Luis&since=${dayBefore(newest, 182)}`,
    `${search}?mentions_service=water-heater-repair&limit=20`,
    `${search}?mentions_service=drain-cleaning&rating=1`,
    `${search}?sort=highest&limit=20`,
  ];
}

const problems: string[] = [];
const checks: { what: string; ok: boolean }[] = [];
const check = (what: string, ok: boolean) => {
  checks.push({ what, ok });
  return ok ? "PASS" : "FAIL";
};
const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor((numbers.length - 1) / 2)] ?? 0;
const mb = (mib: number) => (mib * 1024 * 1024) / 1e6;
const f = (n: number, digits = 2, width = 0) => n.toFixed(digits).padStart(width);

/** Responses must be exactly the expected status: anything else makes the numbers meaningless. */
function expectOnly(result: LoadResult, status: string) {
  const other = Object.entries(result.statusCodes).filter(([code]) => code !== status);
  if (result.errors > 0 || result.timeouts > 0 || other.length > 0 || !result.statusCodes[status]) {
    problems.push(
      `${result.label}: expected only ${status}, got ${JSON.stringify(result.statusCodes)}, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
}

async function main() {
  const dist10k = await builtDataSet(work, SEARCH_REVIEWS, values.rebuild);
  const dist100k = await builtDataSet(work, STARTUP_REVIEWS, values.rebuild);
  const results: LoadResult[] = [];

  // --- 10k reviews, LOG_LEVEL=info (as in production): probe sizes, then (a), (b), (c).
  let sidecar: ServerProcess | undefined = await startSidecar(dist10k, "info");
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
  expectOnly(a, "200");
  results.push(a);

  const b = await measure(
    "(b) search, LOG_LEVEL=info",
    sidecar,
    paths.map((p) => ({ path: p })),
    load,
  );
  expectOnly(b, "200");
  results.push(b);

  const sincePath = `/api/reviews/since/${dayBefore(newest, 30)}`;
  const since = await httpGet(`${sidecar.url}${sincePath}`);
  const etag = since.headers.etag;
  if (since.status !== 200 || typeof etag !== "string") throw new Error(`${sincePath} answered ${since.status}`);
  const revalidated = await httpGet(`${sidecar.url}${sincePath}`, { "If-None-Match": etag });
  if (revalidated.status !== 304) problems.push(`${sincePath} with If-None-Match answered ${revalidated.status}`);
  const c = await measure(
    "(c) since 304, LOG_LEVEL=info",
    sidecar,
    [{ path: sincePath, headers: { "If-None-Match": etag } }],
    load,
  );
  expectOnly(c, "304");
  results.push(c);
  const memory10k = memoryMiB(sidecar.pid);
  await sidecar.stop();

  // --- The same search load with logging off, to make the cost of request logging visible.
  sidecar = await startSidecar(dist10k, "silent");
  const bSilent = await measure(
    "(b) search, LOG_LEVEL=silent",
    sidecar,
    paths.map((p) => ({ path: p })),
    load,
  );
  expectOnly(bSilent, "200");
  results.push(bSilent);
  const cSilent = await measure(
    "(c) since 304, LOG_LEVEL=silent",
    sidecar,
    [{ path: sincePath, headers: { "If-None-Match": etag } }],
    load,
  );
  expectOnly(cSilent, "304");
  results.push(cSilent);
  await sidecar.stop();

  // --- 100k reviews: start-up time, memory, a burst of searches.
  const importsOnly = await runScript("sidecar/src/main.ts", [], sidecarEnv(path.join(work, "api-no-build"), "info"));
  const startups: number[] = [];
  let memoryStarted = { rss: Number.NaN, peak: Number.NaN };
  let memoryBurst = { rss: Number.NaN, peak: Number.NaN };
  let burst: LoadResult | undefined;
  for (let run = 1; run <= STARTUP_RUNS; run++) {
    const big = await startSidecar(dist100k, "info");
    startups.push(big.listeningMs);
    if (run === STARTUP_RUNS) {
      memoryStarted = memoryMiB(big.pid);
      burst = await measure(
        `(b) search, ${STARTUP_REVIEWS / 1000}k reviews, ${BURST_SECONDS} s`,
        big,
        paths.map((p) => ({ path: p })),
        { ...load, duration: BURST_SECONDS, warmup: 0 },
      );
      expectOnly(burst, "200");
      memoryBurst = memoryMiB(big.pid);
      results.push(burst);
    }
    await big.stop();
  }
  const loadOnce = await runScript("scripts/bench/api-load-once.ts", [dist100k], { NODE_OPTIONS: "--expose-gc" });
  if (loadOnce.code !== 0) throw new Error(`api-load-once failed:\n${loadOnce.stderr}`);
  const own = JSON.parse(loadOnce.stdout.trim().split("\n").at(-1) ?? "{}") as {
    reviewsJsonMiB: number;
    importedMs: number;
    loadMs: number;
    steps: { manifestMs: number; readMs: number; indexMs: number };
    manifestEntries: number;
    rss: { before: number; afterLoad: number };
    retainedMiB: { manifest: number; reviews: number; index: number };
  };
  const breakdownRun = await runScript("scripts/bench/api-breakdown-once.ts", [dist10k, JSON.stringify(paths)], {
    NODE_OPTIONS: "--expose-gc --max-semi-space-size=64",
  });
  if (breakdownRun.code !== 0) throw new Error(`api-breakdown-once failed:\n${breakdownRun.stderr}`);
  const breakdown = JSON.parse(breakdownRun.stdout.trim().split("\n").at(-1) ?? "{}") as {
    rows: {
      path: string;
      total: number;
      bytes: number;
      us: { validate: number; fingerprint: number; search: number; stringify: number; etag: number };
    }[];
    mixUs: number;
    allocatedKiB: number;
  };

  // --- Report.
  console.log(
    `bench:api: sidecar on loopback, ${SEARCH_REVIEWS} synthetic reviews, ${load.connections} connections, ` +
      `${load.duration} s per phase after ${load.warmup} s warm-up (node ${process.version}, ${availableParallelism()} CPUs)`,
  );
  console.log(
    `typical search response: ${typical.bytes} bytes (median of ${paths.length} URLs, ${Math.min(...probes.map((p) => p.bytes))}-${Math.max(...probes.map((p) => p.bytes))}); the ceiling serves that body`,
  );
  console.log("");
  console.log(
    `${"phase".padEnd(34)}   req/s  p50 ms  p99 ms  autocannon p50/p99  responses  statuses           CPU % server bench other  log B/resp`,
  );
  for (const r of results) {
    const statuses = Object.entries(r.statusCodes)
      .map(([code, count]) => `${code}x${count}`)
      .join(" ");
    console.log(
      `${r.label.padEnd(34)} ${f(r.rps, 0, 7)} ${f(r.p50, 2, 7)} ${f(r.p99, 2, 7)} ${`${r.acP50}/${r.acP99}`.padStart(19)} ${String(r.total).padStart(10)}  ` +
        `${`${statuses}${r.errors ? ` err${r.errors}` : ""}`.padEnd(18)} ${f(r.serverCpu, 0, 12)} ${f(r.clientCpu, 0, 5)} ${f(r.otherCpu, 0, 5)} ${f(r.logBytesPerRequest, 0, 11)}`,
    );
  }
  console.log("");
  const cpuPerRequest = (r: LoadResult) => (r.serverCpu / 100 / r.rps) * 1e6;
  console.log(
    `targets (${SEARCH_REVIEWS} reviews, ${load.connections} connections):\n` +
      `  b/a = ${f(b.rps / a.rps)}  (>= 0.6)  ${check("b/a >= 0.6", b.rps / a.rps >= 0.6)}\n` +
      `  c/a = ${f(c.rps / a.rps)}  (>= 0.8)  ${check("c/a >= 0.8", c.rps / a.rps >= 0.8)}\n` +
      `  search p99 = ${f(b.p99)} ms  (< 10 ms)  ${check("search p99 < 10 ms", b.p99 < 10)}\n` +
      `  with LOG_LEVEL=silent: b/a = ${f(bSilent.rps / a.rps)}, search p99 ${f(bSilent.p99)} ms, c/a = ${f(cSilent.rps / a.rps)}; ` +
      `info reaches ${f((100 * b.rps) / bSilent.rps, 0)}% of silent's search and ${f((100 * c.rps) / cSilent.rps, 0)}% of its 304 throughput\n` +
      `  responses: non2xx ${[a, b, bSilent, ...(burst ? [burst] : [])].reduce((sum, r) => sum + r.non2xx, 0)} in (a) and all (b) phases, ` +
      `${c.non2xx + cSilent.non2xx} in (c) of which 304: ${(c.statusCodes["304"] ?? 0) + (cSilent.statusCodes["304"] ?? 0)}; ` +
      `errors + timeouts ${results.reduce((sum, r) => sum + r.errors + r.timeouts, 0)}  ${check("statuses", problems.length === 0)}`,
  );
  for (const problem of problems) console.log(`    problem: ${problem}`);
  if (a.clientCpu >= 90) {
    console.log(
      `  note: autocannon used ${f(a.clientCpu, 0)}% of a core during (a), so the ceiling is partly bounded by the load ` +
        "generator: the true ceiling is higher and the ratios above are, if anything, flattering",
    );
  }
  // Requests/s ratios depend on which side of the loopback saturates first; CPU per response does not.
  const [cpuA, cpuB, cpuC] = [a, b, c].map(cpuPerRequest) as [number, number, number];
  console.log(
    `  server CPU per response: (a) ${f(cpuA, 1)} µs, (b) ${f(cpuB, 1)} µs, (c) ${f(cpuC, 1)} µs; ` +
      `as cost ratios, independent of the load generator: a/b = ${f(cpuA / cpuB)}, a/c = ${f(cpuA / cpuC)}`,
  );
  console.log("");
  const startupMedian = median(startups);
  const steps = own.steps;
  console.log(
    `start-up with ${STARTUP_REVIEWS} reviews (reviews.json ${f(own.reviewsJsonMiB, 1)} MiB, ${own.manifestEntries} manifest entries):\n` +
      `  spawn -> "listening" line: ${startups.map((ms) => `${f(ms, 0)} ms`).join(", ")}; median ${f(startupMedian, 0)} ms  (< 1000 ms)  ${check("start-up < 1 s", startupMedian < 1000)}\n` +
      `  node + imports + config (the sidecar exiting on a missing build): ${f(importsOnly.ms, 0)} ms\n` +
      `  sidecar's own load (loadIndexedBundle in a fresh process, reached after ${f(own.importedMs, 0)} ms): ${f(own.loadMs, 0)} ms; ` +
      `step by step: manifest ${f(steps.manifestMs, 0)}, ` +
      `reviews.json read, hashed and parsed ${f(steps.readMs, 0)}, index ${f(steps.indexMs, 0)} ms`,
  );
  console.log(
    `memory with ${STARTUP_REVIEWS} reviews (VmRSS):\n` +
      `  after start-up ${f(mb(memoryStarted.rss), 0)} MB  (< 300 MB)  ${check("RSS after start-up < 300 MB", mb(memoryStarted.rss) < 300)}\n` +
      `  after ${BURST_SECONDS} s of searches ${f(mb(memoryBurst.rss), 0)} MB, peak (VmHWM) ${f(mb(memoryBurst.peak), 0)} MB  (< 300 MB)  ` +
      `${check("RSS after burst < 300 MB", mb(memoryBurst.rss) < 300 && mb(memoryBurst.peak) < 300)}\n` +
      `  loadIndexedBundle alone (fresh process): RSS ${f(mb(own.rss.before), 0)} -> ${f(mb(own.rss.afterLoad), 0)} MB; heap it keeps: ` +
      `manifest ${f(mb(own.retainedMiB.manifest), 0)} MB, reviews ${f(mb(own.retainedMiB.reviews), 0)} MB, index ${f(mb(own.retainedMiB.index), 0)} MB\n` +
      `  (${SEARCH_REVIEWS} reviews, after its load phases: ${f(mb(memory10k.rss), 0)} MB, peak ${f(mb(memory10k.peak), 0)} MB)`,
  );
  console.log("");
  console.log(
    `where a search request's time goes (${SEARCH_REVIEWS} reviews): server CPU per response at (b) ${f(cpuPerRequest(b), 0)} µs ` +
      `(info) / ${f(cpuPerRequest(bSilent), 0)} µs (silent), ceiling ${f(cpuPerRequest(a), 0)} µs; in-process µs per call, best of 7 rounds:`,
  );
  console.log(`  ${"URL".padEnd(72)} total  bytes  search (validate fingerprint)  stringify  etag`);
  const mean = (pick: (u: (typeof breakdown.rows)[number]["us"]) => number) =>
    breakdown.rows.reduce((sum, row) => sum + pick(row.us), 0) / breakdown.rows.length;
  const rows = [
    ...breakdown.rows.map((row) => ({ ...row, label: row.path })),
    {
      label: "mean",
      total: Number.NaN,
      bytes: Number.NaN,
      us: {
        search: mean((u) => u.search),
        validate: mean((u) => u.validate),
        fingerprint: mean((u) => u.fingerprint),
        stringify: mean((u) => u.stringify),
        etag: mean((u) => u.etag),
      },
    },
  ];
  for (const row of rows) {
    const total = Number.isNaN(row.total) ? "" : String(row.total);
    const bytes = Number.isNaN(row.bytes) ? "" : String(row.bytes);
    console.log(
      `  ${row.label.padEnd(72)} ${total.padStart(5)} ${bytes.padStart(6)} ${f(row.us.search, 0, 7)} ` +
        `(${f(row.us.validate, 0, 4)} ${f(row.us.fingerprint, 0, 5)})      ${f(row.us.stringify, 0, 9)} ${f(row.us.etag, 0, 5)}`,
    );
  }
  console.log(
    `  the ${paths.length} URLs in rotation (as served, one process): ${f(breakdown.mixUs, 0)} µs per search, ` +
      `${f(breakdown.allocatedKiB, 0)} KiB allocated per search`,
  );
  const busiest = results.reduce((max, r) => Math.max(max, r.otherCpu), 0);
  if (busiest > 25) {
    console.log("");
    console.log(
      `warning: other processes on this machine used up to ${f(busiest, 0)}% of a CPU during the load phases ` +
        `(${availableParallelism()} CPUs in all): the numbers are pessimistic and noisy; run again on a quiet machine`,
    );
  }
  const failed = checks.filter((c) => !c.ok);
  console.log("");
  console.log(
    failed.length === 0
      ? `all ${checks.length} checks hold`
      : `${failed.length} of ${checks.length} checks fail: ${failed.map((c) => c.what).join("; ")}`,
  );
  // Target misses are results; wrong statuses or errors mean the numbers cannot be trusted.
  if (problems.length > 0) process.exitCode = 1;
}

process.once("SIGINT", () => {
  void stopAll().then(() => process.exit(130));
});
try {
  await main();
} finally {
  await stopAll();
}
