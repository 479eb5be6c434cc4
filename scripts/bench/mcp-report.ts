import { ABANDONED_SESSIONS, type Measured } from "./mcp-load.ts";
import { loadAverage, procStatus, type Sidecar } from "./mcp-sidecar.ts";

/** bench:mcp's output: one row per measured run, then the figures against the targets. */

const TARGETS = { ratio: 0.5, cyclesPerSecond: 300, rssDeltaMB: 20 };

export const f = (n: number, digits = 1, width = 8) => n.toFixed(digits).padStart(width);
const mb = (bytes: number) => bytes / 1_000_000;
const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");
export const row = (label: string, m: Measured, unit: string) =>
  `${label.padEnd(44)} ${f(m.rps, 0, 6)} ${unit.padEnd(9)} p50 ${f(m.p50, 2, 7)} ms  p99 ${f(m.p99, 2, 7)} ms  ` +
  `server CPU ${f(m.cpuMs ?? Number.NaN, 2, 5)} ms each, RSS ${f(mb(m.rss ?? Number.NaN), 0, 4)} MB  (${m.count} done, ${m.errors} errors)`;

/** The runs and memory readings the summary is computed from (memory in bytes). */
export interface McpMeasurements {
  http: Measured;
  /** 2026-07-28 tools/call. */
  tool: Measured;
  /** 2025-11-25 tools/call in one session. */
  sessionTool: Measured;
  /** The SDK alone: 2026-07-28 tools/call of a no-op tool, and of one answering (2)'s results prepared. */
  floorPing: Measured;
  floorReplay: Measured;
  cycles: Measured;
  rssAtStart: number;
  rssBefore: number;
  rssAfter: number;
  rssAfterAgain: number;
  heapBefore: number;
  heapAfter: number;
}

export function printSummary(m: McpMeasurements, sidecar: Sidecar): void {
  const ratio = m.tool.rps / m.http.rps;
  const delta = mb(m.rssAfter - m.rssBefore);
  const heapDelta = mb(m.heapAfter - m.heapBefore);
  console.log("");
  console.log(
    `2026-07-28 tool calls / HTTP search ${f(ratio, 3, 6)}   (target >= ${TARGETS.ratio})  ${verdict(ratio >= TARGETS.ratio)}`,
  );
  console.log(`  2025 session tool calls / HTTP search ${f(m.sessionTool.rps / m.http.rps, 3, 6)}`);
  // Server CPU per request does not depend on what else runs on the machine; req/s does.
  const cpuRatio = (m.http.cpuMs ?? Number.NaN) / (m.tool.cpuMs ?? Number.NaN);
  console.log(
    `  same, from server CPU     ${f(cpuRatio, 3, 6)}   (HTTP search CPU / tool call CPU: the ratio on one saturated core)`,
  );
  // The SDK's own cost per call bounds the ratio any server on it can reach, whatever its tools do.
  for (const [label, floor] of [
    ["SDK floor, no-op tool", m.floorPing],
    ["SDK floor, (2)'s results", m.floorReplay],
  ] as const) {
    const byCpu = (m.http.cpuMs ?? Number.NaN) / (floor.cpuMs ?? Number.NaN);
    console.log(
      `  ${`${label} / HTTP search`.padEnd(40)} ${f(floor.rps / m.http.rps, 3, 6)}   (${f(byCpu, 3, 5)} from server CPU: the best ratio a tools/call on this SDK can reach)`,
    );
  }
  console.log(
    `session cycles per second  ${f(m.cycles.rps, 0, 6)}   (target >= ${TARGETS.cyclesPerSecond})  ${verdict(m.cycles.rps >= TARGETS.cyclesPerSecond)}`,
  );
  console.log(
    `  per server CPU-second     ${f(1000 / (m.cycles.cpuMs ?? Number.NaN), 0, 6)}   (1000 / server CPU ms per cycle)`,
  );
  console.log(
    `sidecar RSS                ${f(mb(m.rssAtStart), 1, 6)} MB at start, ${f(mb(m.rssBefore), 1, 6)} MB before (4), ` +
      `${f(mb(m.rssAfter), 1, 6)} MB after it, ${f(mb(m.rssAfterAgain), 1, 6)} MB after another ${ABANDONED_SESSIONS}; ` +
      `peak (VmHWM) ${f(mb(procStatus(sidecar.pid, "VmHWM")), 1, 6)} MB`,
  );
  console.log(
    `retained heap               ${f(mb(m.heapBefore), 1, 6)} MB before (4), ${f(mb(m.heapAfter), 1, 6)} MB after it (after a forced full collection)`,
  );
  // What the process keeps is the heap after a collection; RSS also counts heap head-room V8 has
  // not returned yet, which moves by tens of MB from run to run.
  console.log(
    `memory kept by 10,000 sessions ${f(heapDelta, 1, 6)} MB retained heap (target within ${TARGETS.rssDeltaMB} MB)  ${verdict(Math.abs(heapDelta) <= TARGETS.rssDeltaMB)}; RSS delta ${f(delta, 1, 6)} MB`,
  );
  console.log(`load average at the end    ${loadAverage()}`);
  console.log(`request log drained        ${f(mb(sidecar.logBytes()), 1, 6)} MB`);
}
