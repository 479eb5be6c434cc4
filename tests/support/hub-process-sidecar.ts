import { readFileSync } from "node:fs";
import { type SidecarProcess, startSidecarProcess, stopSidecars } from "./sidecar-process.ts";

/**
 * A real sidecar process (`packages/server/src/main.ts`) with the hub, on an OS-assigned loopback port:
 * `kill9()` is a crash (no shutdown code runs), `stop()` is graceful (deliveries in flight finish,
 * the database closes).
 */
export type HubSidecar = SidecarProcess;

/** Every sidecar a test file started; afterAll passes it to stopHubSidecars. */
export type HubSidecars = Set<HubSidecar>;

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
  return startSidecarProcess({ env, registry, timeoutMs });
}

/** Stops every sidecar still recorded, in parallel; never throws. */
export async function stopHubSidecars(registry: HubSidecars): Promise<void> {
  await stopSidecars(registry, 2000);
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
