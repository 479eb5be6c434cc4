import { type ChildProcess, spawn } from "node:child_process";
import { ROOT } from "./run-build.ts";

export interface SidecarProcess {
  base: string;
  child: ChildProcess;
  /** Everything the process printed so far, for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within the grace period; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Starts `sidecar/src/main.ts` as a real process on an OS-assigned port and resolves once it prints
 * its "listening on" line. Every child is recorded in `registry` before anything can fail, so the
 * caller's afterAll can stop it whatever happens.
 */
export function startSidecar(
  env: Record<string, string>,
  registry: Set<SidecarProcess>,
  timeoutMs = 60_000,
): Promise<SidecarProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "sidecar/src/main.ts"], {
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
    child,
    output: () => out,
    stop: async (graceMs = 5000) => {
      if (alive(child)) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => {
          if (alive(child)) child.kill("SIGKILL");
        }, graceMs);
        try {
          return await exited;
        } finally {
          clearTimeout(timer);
          registry.delete(sidecar);
        }
      }
      registry.delete(sidecar);
      return child.exitCode;
    },
  };
  registry.add(sidecar);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`sidecar did not start within ${timeoutMs} ms:\n${out}`)),
      timeoutMs,
    );
    const collect = (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1] && !sidecar.base) {
        clearTimeout(timer);
        sidecar.base = match[1];
        resolve(sidecar);
      }
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (!sidecar.base) reject(new Error(`sidecar exited (${code ?? signal}) before listening:\n${out}`));
    });
  });
}

/** Stops every process still recorded, in parallel; never throws. */
export async function stopAll(registry: Set<SidecarProcess>): Promise<void> {
  await Promise.allSettled([...registry].map((sidecar) => sidecar.stop()));
}
