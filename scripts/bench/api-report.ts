import { availableParallelism } from "node:os";
import type { LoadOptions, LoadResult } from "./api-load.ts";
import { type ApiMeasurements, BURST_SECONDS, SEARCH_REVIEWS, STARTUP_REVIEWS } from "./api-phases.ts";

/**
 * bench:api's report: the load phases as a table, the targets each checked as PASS or FAIL, start-up
 * and memory with 100k reviews, and where a search request's time goes.
 */

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor((numbers.length - 1) / 2)] ?? 0;
const mb = (mib: number) => (mib * 1024 * 1024) / 1e6;
const f = (n: number, digits = 2, width = 0) => n.toFixed(digits).padStart(width);
const cpuPerRequest = (r: LoadResult) => (r.serverCpu / 100 / r.rps) * 1e6;

/** The targets, each recorded as it is printed, for the closing line. */
type Check = (what: string, ok: boolean) => "PASS" | "FAIL";

function printLoad(m: ApiMeasurements, load: LoadOptions, check: Check): void {
  const { a, b, c, bSilent, cSilent, burst, results, problems } = m;
  console.log(
    `bench:api: sidecar on loopback, ${SEARCH_REVIEWS} synthetic reviews, ${load.connections} connections, ` +
      `${load.duration} s per phase after ${load.warmup} s warm-up (node ${process.version}, ${availableParallelism()} CPUs)`,
  );
  console.log(
    `typical search response: ${m.typicalBytes} bytes (median of ${m.paths.length} URLs, ${Math.min(...m.probeBytes)}-${Math.max(...m.probeBytes)}); the ceiling serves that body`,
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
}

function printStartup(m: ApiMeasurements, check: Check): void {
  const { own, memoryStarted, memoryBurst, memory10k } = m;
  const startupMedian = median(m.startups);
  const steps = own.steps;
  console.log(
    `start-up with ${STARTUP_REVIEWS} reviews (reviews.json ${f(own.reviewsJsonMiB, 1)} MiB, ${own.manifestEntries} manifest entries):\n` +
      `  spawn -> "listening" line: ${m.startups.map((ms) => `${f(ms, 0)} ms`).join(", ")}; median ${f(startupMedian, 0)} ms  (< 1000 ms)  ${check("start-up < 1 s", startupMedian < 1000)}\n` +
      `  node + imports + config (the sidecar exiting on a missing build): ${f(m.importsOnlyMs, 0)} ms\n` +
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
}

function printBreakdown(m: ApiMeasurements): void {
  const { a, b, bSilent, breakdown } = m;
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
    `  the ${m.paths.length} URLs in rotation (as served, one process): ${f(breakdown.mixUs, 0)} µs per search, ` +
      `${f(breakdown.allocatedKiB, 0)} KiB allocated per search`,
  );
}

/** Prints the whole report, ending with which checks hold. */
export function printReport(m: ApiMeasurements, load: LoadOptions): void {
  const checks: { what: string; ok: boolean }[] = [];
  const check: Check = (what, ok) => {
    checks.push({ what, ok });
    return ok ? "PASS" : "FAIL";
  };
  printLoad(m, load, check);
  printStartup(m, check);
  printBreakdown(m);
  const busiest = m.results.reduce((max, r) => Math.max(max, r.otherCpu), 0);
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
}
