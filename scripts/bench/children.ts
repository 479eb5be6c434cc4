import type { ChildProcess } from "node:child_process";

/** The child processes a benchmark started: each is stopped on every way out, and none outlives it. */
const running = new Set<ChildProcess>();

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

export function track(child: ChildProcess): void {
  running.add(child);
  child.once("exit", () => running.delete(child));
}

/** SIGTERM, then SIGKILL if the child has not exited after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (!alive(child)) {
    running.delete(child);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(force);
      running.delete(child);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Stops whatever is still running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child)));
}

// A last resort if the benchmark exits without stopAll (an uncaught error).
process.once("exit", () => {
  for (const child of running) if (alive(child)) child.kill("SIGKILL");
});
