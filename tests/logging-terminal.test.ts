import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chooseLogOutput, underCi } from "@riverbend/server/logging/create-logger.ts";
import { afterAll, describe, expect, inject, it } from "vitest";
import { TEST_SITE_URL } from "./support/global-setup.ts";
import { ROOT } from "./support/run-build.ts";

/** Log lines for people in a terminal, JSON lines for machines (the container, CI). */
const base = { format: "auto", level: "info", levelGiven: false, terminal: false, ci: false } as const;

describe("choosing the log output", () => {
  it("is human-readable in an interactive terminal, warnings and errors only unless LOG_LEVEL asks for more", () => {
    expect(chooseLogOutput({ ...base, terminal: true })).toEqual({ format: "pretty", level: "warn" });
    expect(chooseLogOutput({ ...base, terminal: true, levelGiven: true })).toEqual({ format: "pretty", level: "info" });
  });

  it("is JSON lines without a terminal, under CI, or when LOG_FORMAT says so", () => {
    expect(chooseLogOutput(base)).toEqual({ format: "json", level: "info" });
    expect(chooseLogOutput({ ...base, terminal: true, ci: true })).toEqual({ format: "json", level: "info" });
    expect(chooseLogOutput({ ...base, terminal: true, format: "json" })).toEqual({ format: "json", level: "info" });
    expect(chooseLogOutput({ ...base, format: "pretty" })).toEqual({ format: "pretty", level: "warn" });
    expect([underCi("true"), underCi("1"), underCi("false"), underCi(""), underCi(undefined)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

const hasScript = spawnSync("script", ["--version"]).status === 0;
const state = mkdtempSync(path.join(tmpdir(), "reviews-terminal-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

/**
 * Starts the sidecar in a pseudo-terminal (util-linux `script`), as `npm start` in a terminal, asks
 * for one document and returns everything the terminal showed.
 */
async function inTerminal(env: string[]): Promise<string> {
  const command = [
    "env -u CI -u LOG_LEVEL -u LOG_FORMAT",
    `PORT=0 SITE_URL=${TEST_SITE_URL} DIST_DIR=${inject("sampleDist")} STATE_DIR=${state} RELOAD_INTERVAL_MS=0`,
    ...env,
    `${process.execPath} --import tsx packages/server/src/main.ts`,
  ].join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  const closed = new Promise((resolve) => child.on("close", resolve));
  try {
    const deadline = Date.now() + 30_000;
    const portOf = () => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
    while (!portOf() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const port = portOf();
    if (!port) throw new Error(`the sidecar did not start:\n${out}`);
    expect((await fetch(`http://127.0.0.1:${port}/reviews.json`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return out;
  } finally {
    child.kill("SIGTERM");
    await closed;
  }
}

describe.skipIf(!hasScript)("npm start in an interactive terminal", () => {
  it("prints warnings as readable lines, no JSON, and no line per request", async () => {
    const out = await inTerminal([]);
    expect(out).toMatch(/\[\d\d:\d\d:\d\d\] .*WARN.*: .*MCP_SESSION_SECRET is not set/);
    expect(out).not.toContain('{"level"');
    expect(out).not.toContain("request completed");
  });

  it("prints a readable line per request when LOG_LEVEL=info asks for it", async () => {
    const out = await inTerminal(["LOG_LEVEL=info"]);
    expect(out).toMatch(/INFO.*: .*request completed/);
    expect(out).toContain("/reviews.json");
    expect(out).not.toContain('{"level"');
  });

  it("keeps JSON lines under CI even in a terminal", async () => {
    const out = await inTerminal(["CI=true"]);
    const line = out.split(/\r?\n/).find((l) => l.includes("MCP_SESSION_SECRET"));
    expect(JSON.parse(line ?? "")).toMatchObject({ level: 40, msg: expect.stringContaining("MCP_SESSION_SECRET") });
  });
});
