import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { ROOT } from "./run-build.ts";

/** A real sidecar process (`sidecar/src/main.ts`) with the hub, on an OS-assigned loopback port. */
export interface HubSidecar {
  base: string;
  pid: number;
  child: ChildProcess;
  /** Everything the process printed so far, for failure messages. */
  output(): string;
  /** SIGKILL: no shutdown code runs, as in a crash. Resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful: deliveries in flight finish, the database closes), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<number | null>;
}

/** Every sidecar a test file started; afterAll passes it to stopHubSidecars. */
export type HubSidecars = Set<HubSidecar>;

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * Starts the sidecar with `env` on top of test defaults (PORT=0, silent logs, no dist polling) and
 * resolves once it prints its "listening on" line. The process is recorded in `registry` before
 * anything can fail, so afterAll can always stop it.
 */
export function startHubSidecar(
  env: Record<string, string>,
  registry: HubSidecars,
  timeoutMs = 30_000,
): Promise<HubSidecar> {
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
  const sidecar: HubSidecar = {
    base: "",
    pid: child.pid ?? -1,
    child,
    output: () => out,
    kill9: async () => {
      if (alive(child)) child.kill("SIGKILL");
      await exited;
      registry.delete(sidecar);
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
        registry.delete(sidecar);
      }
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

/** Stops every sidecar still recorded, in parallel; never throws. */
export async function stopHubSidecars(registry: HubSidecars): Promise<void> {
  await Promise.allSettled([...registry].map((sidecar) => sidecar.stop(2000)));
}

/** Resident memory of a process in KiB (VmRSS from /proc), undefined once it is gone. */
export function rssKiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** POSTs a form to the hub; resolves with status and text. */
export async function hubPost(
  base: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}/api/websub/hub`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
  return { status: response.status, text: await response.text() };
}

/** Polls `check` every `everyMs` until it returns true; throws with `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean, timeoutMs = 15_000, everyMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
