import { get, type IncomingHttpHeaders } from "node:http";
import autocannon, { type RequestSpec } from "autocannon";
import { cpuMs, machineBusyMs, type ServerProcess } from "./api-process.ts";

/** One measured load phase against a server. */
export interface LoadResult {
  label: string;
  /** Responses per second of wall time. */
  rps: number;
  /** Exact percentiles of every response time autocannon reported, in ms. */
  p50: number;
  p99: number;
  /** autocannon's own histogram percentiles (whole milliseconds). */
  acP50: number;
  acP99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** CPU used by the server process, by this (load-generating) process and by everything else, in % of one core. */
  serverCpu: number;
  clientCpu: number;
  otherCpu: number;
  /** Bytes the server wrote to stdout/stderr per response (its request log). */
  logBytesPerRequest: number;
}

export interface LoadOptions {
  connections: number;
  duration: number;
  warmup: number;
  /** A number of requests instead of a duration. */
  amount?: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function fire(
  url: string,
  requests: RequestSpec[],
  connections: number,
  length: { duration: number } | { amount: number },
  times?: number[],
) {
  const instance = autocannon({ url, connections, requests, timeout: 10, ...length });
  if (times) instance.on("response", (_client, _status, _bytes, ms) => times.push(ms));
  return await instance;
}

/** Warms up, then measures `requests` (rotated through by every connection) for `duration` seconds. */
export async function measure(
  label: string,
  server: ServerProcess,
  requests: RequestSpec[],
  { connections, duration, warmup, amount }: LoadOptions,
): Promise<LoadResult> {
  if (warmup > 0) await fire(server.url, requests, connections, { duration: warmup });
  const times: number[] = [];
  const serverCpuBefore = cpuMs(server.pid);
  const clientCpuBefore = process.cpuUsage();
  const machineCpuBefore = machineBusyMs();
  const bytesBefore = server.outputBytes();
  const wallBefore = performance.now();
  const result = await fire(server.url, requests, connections, amount ? { amount } : { duration }, times);
  const wallMs = performance.now() - wallBefore;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const serverCpu = cpuMs(server.pid) - serverCpuBefore;
  const machineCpu = machineBusyMs() - machineCpuBefore;
  const clientCpuMs = (clientCpu.user + clientCpu.system) / 1000;
  const sorted = Float64Array.from(times).sort();
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]),
  );
  return {
    label,
    rps: (1000 * times.length) / wallMs,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    acP50: result.latency.p50,
    acP99: result.latency.p99,
    total: times.length,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    serverCpu: (100 * serverCpu) / wallMs,
    clientCpu: (100 * clientCpuMs) / wallMs,
    otherCpu: Math.max(0, (100 * (machineCpu - serverCpu - clientCpuMs)) / wallMs),
    logBytesPerRequest: times.length > 0 ? (server.outputBytes() - bytesBefore) / times.length : 0,
  };
}

/** One GET without keep-alive and without Accept-Encoding (as autocannon sends it), body in full. */
export function httpGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on("error", reject);
  });
}
