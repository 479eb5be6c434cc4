import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stopAll, stopChild, track } from "./children.ts";

/** A server in a child process of its own, its stdout written to a file (nothing is dropped). */
export interface ServerProcess {
  name: string;
  pid: number;
  url: string;
  /** Milliseconds from spawn() to the "listening on" line on stdout. */
  listeningMs: number;
  /** Bytes the child has written to stdout and stderr so far (request logs included). */
  outputBytes(): number;
  /** The last part of stderr, for error messages. */
  stderrTail(): string;
  stop(): Promise<void>;
}

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

export { stopAll };

/**
 * Runs `node SCRIPT` (Node's own type stripping, as deployed) and resolves once it prints
 * "listening on http://127.0.0.1:PORT". Its stdout (the access log) goes to a file, as a deployment's
 * log collector would take it: drained through a pipe, the log cost CPU in this process, which also
 * runs autocannon, and so slowed the load generator of exactly the phases that log.
 */
export function startServer(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  nodeArgs: readonly string[] = [],
): Promise<ServerProcess> {
  const started = performance.now();
  const logDir = mkdtempSync(path.join(tmpdir(), "bench-log-"));
  const logFile = path.join(logDir, "stdout.log");
  const out = openSync(logFile, "w");
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", out, "pipe"],
  });
  closeSync(out);
  track(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  const bytes = () => {
    try {
      return statSync(logFile).size + stderr.length;
    } catch {
      return 0;
    }
  };
  const stop = async () => {
    await stopChild(child);
    rmSync(logDir, { recursive: true, force: true });
  };
  return new Promise<ServerProcess>((resolve, reject) => {
    let poll: NodeJS.Timeout | undefined;
    const fail = (why: string) => {
      clearTimeout(timer);
      clearInterval(poll);
      void stop().then(() => reject(new Error(`${name}: ${why}\n${stderr}`)));
    };
    const timer = setTimeout(() => fail(`no "listening" line within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null) => fail(`exited with ${code} before listening`);
    child.once("exit", onExit);
    poll = setInterval(() => {
      const head = readFileSync(logFile, "utf8").slice(0, 4096);
      const match = LISTENING.exec(head);
      if (!match?.[1] || child.pid === undefined) return;
      const listeningMs = performance.now() - started;
      clearTimeout(timer);
      clearInterval(poll);
      child.off("exit", onExit);
      resolve({
        name,
        pid: child.pid,
        url: match[1],
        listeningMs,
        outputBytes: bytes,
        stderrTail: () => stderr,
        stop,
      });
    }, 2);
  });
}

/**
 * Runs `node SCRIPT` to completion (`tsx`: through tsx, for the build and synth scripts); resolves
 * with its wall time, exit code and output.
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
  tsx = false,
): Promise<{ ms: number; code: number | null; stdout: string; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...(tsx ? ["--import", "tsx"] : []), script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  track(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) => {
    child.once("exit", (code) => {
      const ms = performance.now() - started;
      clearTimeout(timer);
      resolve({ ms, code, stdout, stderr });
    });
  });
}

/** Resident and peak resident memory of a process, in MiB, from /proc/PID/status. */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** CPU time (user + system) a process has used, in milliseconds, from /proc/PID/stat. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may contain spaces) start at field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks * 10; // USER_HZ is 100 on Linux
}

/** CPU time all processes of the machine have used (user + nice + system, all CPUs), in ms, from /proc/stat. */
export function machineBusyMs(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  const [user = 0, nice = 0, system = 0] = line.trim().split(/\s+/).slice(1, 4).map(Number);
  return (user + nice + system) * 10;
}

/**
 * The Node options the container starts the sidecar with (the flags between `node` and the script
 * in the Dockerfile's exec-form CMD), so the benchmark measures the sidecar as deployed.
 */
export function containerNodeArgs(dockerfile = "Dockerfile"): string[] {
  const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(readFileSync(dockerfile, "utf8"))?.[1];
  const argv = cmd ? (JSON.parse(cmd) as string[]) : [];
  return argv[0] === "node" ? argv.slice(1).filter((arg) => arg.startsWith("--")) : [];
}
