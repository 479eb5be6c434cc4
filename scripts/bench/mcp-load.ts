import autocannon, { type Options } from "autocannon";
import { Pool } from "undici";
import { callBody, INITIALIZE_BODY, MCP_HEADERS } from "./mcp-protocol.ts";

/**
 * bench:mcp's load generators: autocannon for plain request mixes, and a loop of whole session
 * cycles (initialize, tools/call, DELETE) that autocannon cannot express, since each cycle needs the
 * session id the previous request returned.
 */

export const CONNECTIONS = 16;
export const SECONDS = 8;
export const WARMUP_SECONDS = 2;
export const ABANDONED_SESSIONS = 10_000;

export interface Measured {
  /** Server CPU milliseconds per request (or cycle). */
  cpuMs?: number;
  /** Server RSS in bytes right after the run. */
  rss?: number;
  rps: number;
  p50: number;
  p99: number;
  count: number;
  errors: number;
}

export async function cannon(options: Options): Promise<Measured> {
  const result = await autocannon(options);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    count: result.requests.sent,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

/**
 * Session cycles (initialize, tools/call, DELETE) from CONNECTIONS loops for `seconds`, over an undici
 * pool of as many keep-alive connections: a lighter client than fetch, since it shares the CPUs.
 */
export async function sessionCycles(
  base: string,
  mix: Record<string, string | number>[],
  seconds: number,
): Promise<Measured & { clientCpuMs: number }> {
  const pool = new Pool(base, { connections: CONNECTIONS });
  const durations: number[] = [];
  let errors = 0;
  const clientCpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async (worker: number) => {
    for (let i = worker; performance.now() < deadline; i += CONNECTIONS) {
      const t0 = performance.now();
      try {
        const init = await pool.request({ path: "/mcp", method: "POST", headers: MCP_HEADERS, body: INITIALIZE_BODY });
        await init.body.dump();
        const session = String(init.headers["mcp-session-id"] ?? "");
        const call = await pool.request({
          path: "/mcp",
          method: "POST",
          headers: { ...MCP_HEADERS, "Mcp-Session-Id": session },
          body: callBody(mix[i % mix.length] ?? {}),
        });
        const text = await call.body.text();
        const end = await pool.request({ path: "/mcp", method: "DELETE", headers: { "Mcp-Session-Id": session } });
        await end.body.dump();
        const ok = init.statusCode === 200 && call.statusCode === 200 && end.statusCode === 200;
        if (!ok || !session || !text.includes('"structuredContent"')) {
          errors++;
          continue;
        }
        durations.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, worker) => loop(worker)));
  } finally {
    await pool.close();
  }
  const elapsed = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(clientCpu);
  durations.sort((a, b) => a - b);
  return {
    rps: durations.length / elapsed,
    p50: percentile(durations, 50),
    p99: percentile(durations, 99),
    count: durations.length,
    errors,
    clientCpuMs: (user + system) / 1000 / Math.max(1, durations.length),
  };
}
