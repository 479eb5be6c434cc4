import { availableParallelism, loadavg } from "node:os";
import type { LoadOptions, LoadResult } from "./api-load.ts";
import { type ApiMeasurements, DISTINCT_QUERIES, MAIN_SIZE, MEMORY_SIZE } from "./api-phases.ts";

/** bench:api's report: every load row with its ratio to the bare ceiling, the growth with data size, memory, targets. */

const f = (n: number, digits = 0, width = 0) => n.toFixed(digits).padStart(width);
const cpuPerRequest = (r: LoadResult) => (r.serverCpu / 100 / r.rps) * 1e6;
const statuses = (r: LoadResult) =>
  Object.entries(r.statusCodes)
    .map(([code, count]) => `${code}x${count}`)
    .join(" ") + (r.errors ? ` err${r.errors}` : "");

function row(label: string, r: LoadResult, bare: LoadResult): string {
  return (
    `${label.padEnd(34)} ${f(r.rps, 0, 7)} ${f(r.rps / bare.rps, 2, 6)} ${f(r.p50, 2, 7)} ${f(r.p99, 2, 7)} ` +
    `${f(cpuPerRequest(r), 0, 9)}   ${statuses(r)}`
  );
}

export function printReport(m: ApiMeasurements, load: LoadOptions): void {
  const [one] = loadavg();
  console.log(
    `bench:api: sidecar on loopback (LOG_LEVEL=info), ${load.connections} connections, ${load.duration} s per phase after ` +
      `${load.warmup} s warm-up; node ${process.version}, ${availableParallelism()} CPUs, load average ${f(one ?? 0, 1)} at the end`,
  );
  console.log(`typical search response: ${m.typicalBytes} bytes; the bare ceiling serves that body`);
  console.log("");
  console.log(`${`${MAIN_SIZE / 1000}k reviews`.padEnd(34)}   req/s  x bare  p50 ms  p99 ms  CPU us/req  statuses`);
  const { ceiling } = m;
  console.log(row("bare node:http ceiling", ceiling, ceiling));
  console.log(row("Express 5, prepared buffer", m.expressFloor, ceiling));
  console.log(row("search, fixed mix of 10", m.fixedMix, ceiling));
  console.log(row("search, every request a new query", m.newQueries, ceiling));
  console.log(row("since, If-None-Match (304)", m.since304, ceiling));
  console.log("");
  console.log(`${"new-query search by data size".padEnd(34)}   req/s  x bare  p50 ms  p99 ms  CPU us/req  statuses`);
  for (const { size, result } of m.growth) console.log(row(`${size / 1000}k reviews`, result, ceiling));
  console.log("");
  const after = m.memoryAfterQueries;
  console.log(
    `${MEMORY_SIZE / 1000}k reviews: start-up ${f(m.startupMs)} ms; RSS ${f(m.memoryStarted.rss)} MB started, ` +
      `${f(after.rss)} MB after ${DISTINCT_QUERIES} distinct queries (peak ${f(after.peak)} MB; ` +
      `${f(m.distinctQueries.rps)} req/s, p99 ${f(m.distinctQueries.p99, 1)} ms)`,
  );
  console.log("");
  const targets: [string, boolean][] = [
    [
      `new-query search >= 0.4 of bare (${f(m.newQueries.rps / ceiling.rps, 2)})`,
      m.newQueries.rps >= 0.4 * ceiling.rps,
    ],
    [`new-query search p99 < 20 ms (${f(m.newQueries.p99, 1)})`, m.newQueries.p99 < 20],
    [`fixed-mix search >= 0.6 of bare (${f(m.fixedMix.rps / ceiling.rps, 2)})`, m.fixedMix.rps >= 0.6 * ceiling.rps],
    [`since 304 >= 0.8 of bare (${f(m.since304.rps / ceiling.rps, 2)})`, m.since304.rps >= 0.8 * ceiling.rps],
    [`RSS < 300 MB after ${DISTINCT_QUERIES} distinct queries at 100k (${f(after.rss)})`, after.rss < 300],
    [`start-up < 1 s at 100k (${f(m.startupMs)} ms)`, m.startupMs < 1000],
  ];
  for (const [what, ok] of targets) console.log(`${ok ? "PASS" : "FAIL"}  ${what}`);
  for (const problem of m.problems) console.log(`PROBLEM  ${problem}`);
}
