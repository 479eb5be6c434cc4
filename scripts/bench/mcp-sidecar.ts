import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { MANIFEST_FILE } from "@riverbend/shared/bundle/manifest.ts";

/**
 * bench:mcp's sidecar: the synthetic data set and its build, the sidecar in a child process (with the
 * memory probe preloaded), and what /proc tells about it (memory, CPU time, the machine's load).
 */

export const SIZE = 10_000;
const SITE_URL = "https://reviews.example.com";

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

/** Writes the synthetic reviews and builds them, each only when missing. */
export function ensureBuild(): void {
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

export interface Sidecar {
  child: ChildProcess;
  pid: number;
  url: string;
  logBytes(): number;
  /** Heap the sidecar retains after a forced full garbage collection, in bytes. */
  retainedHeap(): Promise<number>;
}

/** The sidecar in a child process; its output is read and dropped (counted), so pino never blocks. */
export function startSidecar(): Promise<Sidecar> {
  // The memory probe answers SIGUSR2 with the heap retained after a forced full collection.
  const probe = path.resolve("scripts/bench/memory-probe.ts");
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", "--import", probe, "packages/server/src/main.ts"],
    {
      env: {
        ...process.env,
        HOST: "127.0.0.1",
        PORT: "0",
        DIST_DIR: dist,
        SITE_URL,
        LOG_LEVEL: "info",
        READ_RATE_LIMIT_PER_MINUTE: "0",
        MCP_SESSION_SECRET: "bench-mcp-fixed-secret-0123456789abcdef",
        MCP_RATE_LIMIT_PER_MINUTE: "1000000000",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const liveWaiters: ((heap: number) => void)[] = [];
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
  const retainedHeap = (pid: number) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the memory probe did not answer")), 10_000);
      liveWaiters.push((heap) => {
        clearTimeout(timer);
        resolve(heap);
      });
      process.kill(pid, "SIGUSR2");
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
      const pid = child.pid;
      if (!url || pid === undefined) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      resolve({ child, pid, url, logBytes: () => bytes, retainedHeap: () => retainedHeap(pid) });
    };
    child.stdout?.on("data", onData);
  });
}

/** VmRSS (or another /proc/PID/status field) in bytes. */
export function procStatus(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match?.[1]) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

/** CPU seconds (user + system) the process has used so far, from /proc/PID/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat(5) (utime, stime), counted from after the command name; clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The 1-minute load average: the numbers mean little when other work shares the CPUs. */
export const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?";
