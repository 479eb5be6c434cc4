import { type ChildProcess, spawn } from "node:child_process";
import { ROOT } from "./run-build.ts";

/** A real sidecar process (`node --import tsx packages/server/src/main.ts`) on an OS-assigned loopback port. */
export interface SidecarProcess {
  /** `http://HOST:PORT` once it listens, HOST being `options.host`. */
  base: string;
  pid: number;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGKILL: no shutdown code runs, as in a crash. Resolves once the process is gone. */
  kill9(): Promise<void>;
  /**
   * SIGTERM (graceful: deliveries in flight finish, the database closes), SIGKILL if it has not exited
   * within `graceMs`; resolves with the exit code.
   */
  stop(graceMs?: number): Promise<number | null>;
}

export interface SidecarOptions {
  /** On top of the parent's environment and the test defaults (PORT=0, silent logs, no dist polling). */
  env?: Record<string, string>;
  /**
   * Host name of the returned `base` (default 127.0.0.1). The process always listens on loopback; a
   * caller may need the same port under another name, such as localhost.
   */
  host?: string;
  /** How long to wait for the "listening on" line before stopping the process and failing. */
  timeoutMs?: number;
  /** Keep only the last this many characters of output (default: all of it). */
  outputLimit?: number;
  /**
   * Where the process is recorded before anything can fail, so the caller's afterAll can stop it
   * whatever happens (see stopSidecars); it is removed once stopped or killed.
   */
  registry?: Set<SidecarProcess>;
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Starts the sidecar and resolves once it prints its "listening on" line. */
export function startSidecarProcess(options: SidecarOptions = {}): Promise<SidecarProcess> {
  const {
    env = {},
    host = "127.0.0.1",
    timeoutMs = 30_000,
    outputLimit = Number.POSITIVE_INFINITY,
    registry,
  } = options;
  const child = spawn(process.execPath, ["--import", "tsx", "packages/server/src/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "silent", RELOAD_INTERVAL_MS: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const exited = new Promise<number | null>((resolve) => {
    if (!alive(child)) resolve(child.exitCode);
    child.once("exit", (code) => resolve(code));
  });
  const sidecar: SidecarProcess = {
    base: "",
    pid: child.pid ?? -1,
    child,
    output: () => out,
    kill9: async () => {
      if (alive(child)) child.kill("SIGKILL");
      await exited;
      registry?.delete(sidecar);
    },
    stop: async (graceMs = 5000) => {
      if (alive(child)) child.kill("SIGTERM");
      const timer = setTimeout(() => {
        if (alive(child)) child.kill("SIGKILL");
      }, graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
        registry?.delete(sidecar);
      }
    },
  };
  registry?.add(sidecar);
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (then: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      then();
    };
    const timer = setTimeout(
      () =>
        settle(() => {
          void sidecar.stop().then(() => reject(new Error(`sidecar did not start within ${timeoutMs} ms:\n${out}`)));
        }),
      timeoutMs,
    );
    const collect = (chunk: string) => {
      out = (out + chunk).slice(-outputLimit);
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      if (port && !sidecar.base) {
        sidecar.base = `http://${host}:${port}`;
        settle(() => resolve(sidecar));
      }
    };
    child.stdout?.setEncoding("utf8").on("data", collect);
    child.stderr?.setEncoding("utf8").on("data", collect);
    child.once("error", (error) => settle(() => reject(error)));
    child.once("exit", (code, signal) =>
      settle(() => reject(new Error(`sidecar exited (${code ?? signal}) before listening:\n${out}`))),
    );
  });
}

/** Stops every process still recorded, in parallel; never throws. */
export async function stopSidecars(registry: Set<SidecarProcess>, graceMs?: number): Promise<void> {
  await Promise.allSettled([...registry].map((sidecar) => sidecar.stop(graceMs)));
}
