import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BuildRun } from "./run-build.ts";
import { ROOT } from "./run-build.ts";

export const IMPORT_FIXTURES = path.join(ROOT, "tests/fixtures/import");

/** A temporary copy of the repository's data folder: tests never change data/ itself. */
export function copyOfData(): { dir: string; remove: () => void } {
  const parent = mkdtempSync(path.join(tmpdir(), "reviews-editor-"));
  const dir = path.join(parent, "data");
  cpSync(path.join(ROOT, "data"), dir, { recursive: true });
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/**
 * Runs an editor command (`scripts/<name>.ts`) as `npm run` does, as a child process; `input`
 * becomes its standard input (a pipe, so not a terminal), otherwise standard input is closed.
 */
export function runEditor(script: string, args: string[], input?: string): Promise<BuildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: "/nonexistent-use-the-data-flag" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

export function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
}

export function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
