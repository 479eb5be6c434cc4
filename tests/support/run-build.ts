import { spawn } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export interface BuildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/build.ts` in a child process, as `npm run build` does, with the given environment. */
export function runBuild(env: Record<string, string>): Promise<BuildRun> {
  return runScript("scripts/build.ts", [], env);
}

export function runScript(script: string, args: string[], env: Record<string, string> = {}): Promise<BuildRun> {
  return runCommand(process.execPath, ["--import", "tsx", script, ...args], {
    env: { ASTRO_TELEMETRY_DISABLED: "1", ...env },
  });
}

/**
 * Runs a command to its end and collects its output as text. `env` is added to this process's
 * environment; past `timeoutMs` (if given) the child is killed and its output so far returned.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<BuildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer =
      options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
