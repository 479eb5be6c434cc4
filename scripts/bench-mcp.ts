import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { Pool } from "undici";
import { MANIFEST_FILE } from "../src/build/manifest.ts";

/**
 * `npm run bench:mcp`: the sidecar's MCP endpoint under load, on the 10k-review synthetic set, with
 * autocannon on loopback at one concurrency, in one run:
 *   (1) GET /api/reviews/search with a typical filter mix (the reference),
 *   (2) tools/call search_reviews with the same filters on one open session,
 *   (3) whole session cycles: initialize + tools/call + DELETE,
 *   (4) the sidecar's RSS before and after 10,000 initialize requests whose sessions are abandoned.
 * The sidecar runs as a child process with LOG_LEVEL=info (its output piped and drained). Requests per
 * second depend on what else shares the CPUs (load generator included); the sidecar's CPU time per
 * request, from /proc/PID/stat, does not, so both are printed.
 */

// autocannon ships no types; only what is used here.
interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
interface AutocannonResult {
  requests: Histogram & { sent: number };
  latency: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  requests: { method: string; path: string; headers?: Record<string, string>; body?: string }[];
}
const autocannon = createRequire(import.meta.url)("autocannon") as (
  options: AutocannonOptions,
) => PromiseLike<AutocannonResult> & { stop(): void };

const SIZE = 10_000;
const CONNECTIONS = 16;
const SECONDS = 8;
const WARMUP_SECONDS = 2;
const ABANDONED_SESSIONS = 10_000;
const SITE_URL = "https://reviews.example.com";
const PROTOCOL_VERSION = "2025-11-25";
const TARGETS = { ratio: 0.5, cyclesPerSecond: 300, rssDeltaMB: 20 };

const work = path.resolve(".cache/bench");
const data = path.join(work, `data-${SIZE}`);
const dist = path.join(work, `dist-api-${SIZE}`);

function nodeScript(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, ["--import", "tsx", ...args], {
    encoding: "utf8",
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`${args.join(" ")} failed (${run.status}):\n${run.stderr}`);
}

function ensureBuild(): void {
  mkdirSync(work, { recursive: true });
  if (!existsSync(path.join(data, "business.json"))) {
    console.error(`bench:mcp: writing ${SIZE} synthetic reviews to ${data}`);
    nodeScript(["scripts/synth.ts", "--reviews", String(SIZE), "--out", data, "--seed", "42"]);
  }
  if (!existsSync(path.join(dist, MANIFEST_FILE))) {
    console.error(`bench:mcp: building ${data} into ${dist}`);
    nodeScript(["scripts/build.ts"], { DATA_DIR: data, DIST_DIR: dist, SITE_URL });
  }
}

interface Sidecar {
  child: ChildProcess;
  pid: number;
  url: string;
  logBytes(): number;
}

/** The sidecar in a child process; its output is read and dropped (counted), so pino never blocks. */
const liveWaiters: ((heap: number) => void)[] = [];

/** Heap the sidecar retains after a forced full garbage collection, in bytes. */
function retainedHeap(pid: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the memory probe did not answer")), 10_000);
    liveWaiters.push((heap) => {
      clearTimeout(timer);
      resolve(heap);
    });
    process.kill(pid, "SIGUSR2");
  });
}

function startSidecar(): Promise<Sidecar> {
  // The memory probe answers SIGUSR2 with the heap retained after a forced full collection.
  const probe = path.resolve("scripts/bench/memory-probe.ts");
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", "--import", probe, "sidecar/src/main.ts"], {
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: "0",
      DIST_DIR: dist,
      SITE_URL,
      LOG_LEVEL: "info",
      MCP_SESSION_SECRET: "bench-mcp-fixed-secret-0123456789abcdef",
      MCP_RATE_LIMIT_PER_MINUTE: "1000000000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let bytes = 0;
  let head = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    if (head.length < 4096) head += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    const text = chunk.toString("utf8");
    stderr = (stderr + text).slice(-4000);
    const live = /memprobe-live (\{[^\n]*\})/.exec(text)?.[1];
    if (live) liveWaiters.shift()?.((JSON.parse(live) as { heap: number }).heap);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`sidecar did not listen within 60 s\n${stderr}`));
    }, 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sidecar exited with ${code}\n${stderr}`));
    });
    const onData = () => {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(head)?.[1];
      if (!url || child.pid === undefined) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      resolve({ child, pid: child.pid, url, logBytes: () => bytes });
    };
    child.stdout?.on("data", onData);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** VmRSS (or another /proc/PID/status field) in bytes. */
function procStatus(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match?.[1]) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

/** CPU seconds (user + system) the process has used so far, from /proc/PID/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat(5) (utime, stime), counted from after the command name; clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The 1-minute load average: the numbers mean little when other work shares the CPUs. */
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?";

const dayBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** The typical filter mix of bench:api, as typed arguments (the tool's input) and as query strings. */
function filterMix(newest: string): Record<string, string | number>[] {
  return [
    { rating: 5, limit: 20 },
    { min_rating: 4, since: dayBefore(newest, 365), limit: 20 },
    { query: "late", limit: 20 },
    { query: "quote", min_rating: 4 },
    { query: "window", sort: "highest", limit: 20 },
    { mentions_technician: "Dana", limit: 20 },
    { mentions_technician: "Luis", since: dayBefore(newest, 182) },
    { mentions_service: "water-heater-repair", limit: 20 },
    { mentions_service: "drain-cleaning", rating: 1 },
    { sort: "highest", limit: 20 },
  ];
}

const queryString = (args: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)])).toString();

const MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": PROTOCOL_VERSION,
};
const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "bench-mcp", version: "1" } },
});
const callBody = (args: Record<string, string | number>, id = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_reviews", arguments: args } });

async function openSession(base: string): Promise<string> {
  const response = await fetch(`${base}/mcp`, { method: "POST", headers: MCP_HEADERS, body: INITIALIZE_BODY });
  const session = response.headers.get("mcp-session-id");
  await response.text();
  if (response.status !== 200 || !session) throw new Error(`initialize: HTTP ${response.status}`);
  const initialized = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...MCP_HEADERS, "Mcp-Session-Id": session },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.text();
  if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
  return session;
}

/** Checks once per filter that the tool and the HTTP search give the very same page. */
async function checkSameResults(base: string, session: string, mix: Record<string, string | number>[]) {
  for (const args of mix) {
    const http = await (await fetch(`${base}/api/reviews/search?${queryString(args)}`)).json();
    const response = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { ...MCP_HEADERS, "Mcp-Session-Id": session },
      body: callBody(args),
    });
    const rpc = (await response.json()) as { result?: { structuredContent?: unknown; isError?: boolean } };
    if (rpc.result?.isError || !isDeepStrictEqual(rpc.result?.structuredContent, http)) {
      throw new Error(`search_reviews ${JSON.stringify(args)} differs from the HTTP search`);
    }
  }
}

interface Measured {
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

async function cannon(options: AutocannonOptions): Promise<Measured> {
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
async function sessionCycles(
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

const f = (n: number, digits = 1, width = 8) => n.toFixed(digits).padStart(width);
const mb = (bytes: number) => bytes / 1_000_000;
const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");
const row = (label: string, m: Measured, unit: string) =>
  `${label.padEnd(44)} ${f(m.rps, 0, 6)} ${unit.padEnd(9)} p50 ${f(m.p50, 2, 7)} ms  p99 ${f(m.p99, 2, 7)} ms  ` +
  `server CPU ${f(m.cpuMs ?? Number.NaN, 2, 5)} ms each, RSS ${f(mb(m.rss ?? Number.NaN), 0, 4)} MB  (${m.count} done, ${m.errors} errors)`;

async function main(): Promise<void> {
  ensureBuild();
  const sidecar = await startSidecar();
  const stop = () => {
    void stopChild(sidecar.child).then(() => process.exit(130));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    const base = sidecar.url;
    const rssAtStart = procStatus(sidecar.pid, "VmRSS");
    const withCpu = async <T extends Measured>(run: () => Promise<T>): Promise<T> => {
      const before = cpuSeconds(sidecar.pid);
      const measured = await run();
      const cpuMs = ((cpuSeconds(sidecar.pid) - before) * 1000) / Math.max(1, measured.count);
      return { ...measured, cpuMs, rss: procStatus(sidecar.pid, "VmRSS") };
    };
    const newestPage = (await (await fetch(`${base}/api/reviews/search?limit=1`)).json()) as {
      total: number;
      reviews: { date: string }[];
    };
    const newest = newestPage.reviews[0]?.date;
    if (!newest || newestPage.total !== SIZE) throw new Error(`expected ${SIZE} reviews, got ${newestPage.total}`);
    const mix = filterMix(newest);
    const session = await openSession(base);
    await checkSameResults(base, session, mix);

    const httpRequests = mix.map((args) => ({ method: "GET", path: `/api/reviews/search?${queryString(args)}` }));
    const mcpHeaders = { ...MCP_HEADERS, "Mcp-Session-Id": session };
    const toolRequests = mix.map((args, i) => ({
      method: "POST",
      path: "/mcp",
      headers: mcpHeaders,
      body: callBody(args, i),
    }));

    console.log(
      `bench:mcp: ${SIZE} reviews, sidecar pid ${sidecar.pid} (LOG_LEVEL=info, drained), ${CONNECTIONS} connections, ` +
        `${SECONDS} s per run after ${WARMUP_SECONDS} s warm-up, ${mix.length} filters, Node ${process.version}, ` +
        `${availableParallelism()} CPUs, load average ${loadAverage()}`,
    );
    // Warm-up: both paths, so neither run pays for JIT compilation of the shared search code.
    await cannon({ url: base, connections: CONNECTIONS, duration: WARMUP_SECONDS, requests: httpRequests });
    await cannon({ url: base, connections: CONNECTIONS, duration: WARMUP_SECONDS, requests: toolRequests });

    const http = await withCpu(() =>
      cannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests: httpRequests }),
    );
    console.log(row("(1) GET /api/reviews/search", http, "req/s"));
    const tool = await withCpu(() =>
      cannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests: toolRequests }),
    );
    console.log(row("(2) tools/call search_reviews, one session", tool, "req/s"));
    const cycles = await withCpu(() => sessionCycles(base, mix, SECONDS));
    console.log(row("(3) initialize + tools/call + DELETE", cycles, "cycles/s"));
    console.log(`    the client's own CPU: ${f(cycles.clientCpuMs, 2, 5)} ms per cycle`);

    const heapBefore = await retainedHeap(sidecar.pid);
    const rssBefore = procStatus(sidecar.pid, "VmRSS");
    const abandoned = await withCpu(() =>
      cannon({
        url: base,
        connections: CONNECTIONS,
        amount: ABANDONED_SESSIONS,
        requests: [{ method: "POST", path: "/mcp", headers: MCP_HEADERS, body: INITIALIZE_BODY }],
      }),
    );
    const rssAfter = procStatus(sidecar.pid, "VmRSS");
    const heapAfter = await retainedHeap(sidecar.pid);
    console.log(row(`(4) ${ABANDONED_SESSIONS} initialize, never DELETEd`, abandoned, "req/s"));
    // A second batch tells retained memory (it would grow again) from heap head-room (it does not).
    const again = await withCpu(() =>
      cannon({
        url: base,
        connections: CONNECTIONS,
        amount: ABANDONED_SESSIONS,
        requests: [{ method: "POST", path: "/mcp", headers: MCP_HEADERS, body: INITIALIZE_BODY }],
      }),
    );
    const rssAfterAgain = procStatus(sidecar.pid, "VmRSS");
    console.log(row(`    another ${ABANDONED_SESSIONS}`, again, "req/s"));

    const ratio = tool.rps / http.rps;
    const delta = mb(rssAfter - rssBefore);
    const heapDelta = mb(heapAfter - heapBefore);
    console.log("");
    console.log(
      `tool calls / HTTP search   ${f(ratio, 3, 6)}   (target >= ${TARGETS.ratio})  ${verdict(ratio >= TARGETS.ratio)}`,
    );
    // Server CPU per request does not depend on what else runs on the machine; req/s does.
    const cpuRatio = (http.cpuMs ?? Number.NaN) / (tool.cpuMs ?? Number.NaN);
    console.log(
      `  same, from server CPU     ${f(cpuRatio, 3, 6)}   (HTTP search CPU / tool call CPU: the ratio on one saturated core)`,
    );
    console.log(
      `session cycles per second  ${f(cycles.rps, 0, 6)}   (target >= ${TARGETS.cyclesPerSecond})  ${verdict(cycles.rps >= TARGETS.cyclesPerSecond)}`,
    );
    console.log(
      `  per server CPU-second     ${f(1000 / (cycles.cpuMs ?? Number.NaN), 0, 6)}   (1000 / server CPU ms per cycle)`,
    );
    console.log(
      `sidecar RSS                ${f(mb(rssAtStart), 1, 6)} MB at start, ${f(mb(rssBefore), 1, 6)} MB before (4), ` +
        `${f(mb(rssAfter), 1, 6)} MB after it, ${f(mb(rssAfterAgain), 1, 6)} MB after another ${ABANDONED_SESSIONS}; ` +
        `peak (VmHWM) ${f(mb(procStatus(sidecar.pid, "VmHWM")), 1, 6)} MB`,
    );
    console.log(
      `retained heap               ${f(mb(heapBefore), 1, 6)} MB before (4), ${f(mb(heapAfter), 1, 6)} MB after it (after a forced full collection)`,
    );
    // What the process keeps is the heap after a collection; RSS also counts heap head-room V8 has
    // not returned yet, which moves by tens of MB from run to run.
    console.log(
      `memory kept by 10,000 sessions ${f(heapDelta, 1, 6)} MB retained heap (target within ${TARGETS.rssDeltaMB} MB)  ${verdict(Math.abs(heapDelta) <= TARGETS.rssDeltaMB)}; RSS delta ${f(delta, 1, 6)} MB`,
    );
    console.log(`load average at the end    ${loadAverage()}`);
    console.log(`request log drained        ${f(mb(sidecar.logBytes()), 1, 6)} MB`);
    const failures = http.errors + tool.errors + cycles.errors + abandoned.errors + again.errors;
    if (failures > 0) {
      console.error(`bench:mcp: ${failures} failed requests (non-2xx, errors or timeouts)`);
      process.exitCode = 1;
    }
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    await stopChild(sidecar.child);
  }
}

await main();
