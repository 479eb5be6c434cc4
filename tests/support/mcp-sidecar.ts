import { type SidecarProcess, startSidecarProcess, stopSidecars } from "./sidecar-process.ts";

export type { SidecarProcess } from "./sidecar-process.ts";

/**
 * Starts `packages/server/src/main.ts` as a real process on an OS-assigned port and resolves once it prints
 * its "listening on" line. Every child is recorded in `registry` before anything can fail, so the
 * caller's afterAll can stop it whatever happens.
 */
export function startSidecar(
  env: Record<string, string>,
  registry: Set<SidecarProcess>,
  timeoutMs = 60_000,
): Promise<SidecarProcess> {
  return startSidecarProcess({ env, registry, timeoutMs });
}

/** Stops every process still recorded, in parallel; never throws. */
export async function stopAll(registry: Set<SidecarProcess>): Promise<void> {
  await stopSidecars(registry);
}
