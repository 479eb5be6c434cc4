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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
