import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT, runCommand } from "./support/run-build.ts";
import { type SidecarProcess, startSidecarProcess } from "./support/sidecar-process.ts";
import { databaseUrlFor, dropSchema, hasDatabase } from "./support/test-database.ts";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, server mode) against the
 * sidecar in a child process, as a client on another machine would see it.
 *
 * Most of the suite's scenarios call names that only its own fixture server has (test_simple_text,
 * test://static-text, test_simple_prompt, ...); those are listed with the reason in
 * mcp-conformance-expected-failures.yml. Every scenario that can apply to any server is run on its
 * own and must pass; the whole active suite must then fail exactly the listed ones.
 */

const CONFORMANCE_DIR = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance");
const conformancePackage = JSON.parse(readFileSync(path.join(CONFORMANCE_DIR, "package.json"), "utf8")) as {
  version: string;
  bin: Record<string, string>;
};
const CONFORMANCE_BIN = path.join(CONFORMANCE_DIR, conformancePackage.bin.conformance ?? "dist/index.js");
const BASELINE_FILE = path.join(ROOT, "tests/mcp-conformance-expected-failures.yml");
const SECRET = "conformance-test-secret-0123456789abcdef";

/** Scenarios that do not depend on the suite's fixture names: each must pass on its own. */
const GENERIC = [
  "server-initialize",
  "ping",
  "tools-list",
  "logging-set-level",
  "resources-list",
  "prompts-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];
/** In the pending suite only; it "passes" with INFO checks alone (this server answers JSON, not SSE). */
const VACUOUS = ["server-sse-polling"];
/** Baseline entries that only `--suite all` runs (the default active suite leaves them out). */
const PENDING_IN_BASELINE = ["json-schema-2020-12"];

/** The scenario names of the baseline file (`server:` list items). */
function baselineScenarios(): string[] {
  const names: string[] = [];
  let inServer = false;
  for (const line of readFileSync(BASELINE_FILE, "utf8").split("\n")) {
    if (/^\S/.test(line) && !line.startsWith("#")) inServer = line.trim() === "server:";
    const item = /^\s+-\s+([\w.-]+)\s*$/.exec(line);
    if (inServer && item?.[1]) names.push(item[1]);
  }
  return names;
}

async function run(command: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs = 60_000) {
  const { code, stdout, stderr } = await runCommand(command, args, { cwd, env, timeoutMs });
  return { code, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) };
}

/**
 * `node --import tsx packages/server/src/main.ts` on an OS-assigned port; resolves once it listens. The base
 * is http://localhost:PORT: the dns-rebinding scenario only means something against a localhost URL.
 */
const startSidecar = (env: Record<string, string>) =>
  startSidecarProcess({
    env: { HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    host: "localhost",
    outputLimit: 20_000,
  });

const sidecarEnv = () => ({
  DIST_DIR: inject("localhostDist"),
  // The guard admits Host/Origin localhost, 127.0.0.1, [::1] and the SITE_URL host. The port is not
  // known before listening, and only the host name counts, so a port-less localhost URL is exact.
  SITE_URL: "http://localhost",
  MCP_SESSION_SECRET: SECRET,
  MCP_RATE_LIMIT_PER_MINUTE: "100000",
  // With a test database both processes share it, as replicas do: terminations reach every process.
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const SCHEMA_KEY = `mcp-conformance-${process.pid}-${Date.now()}`;
let databaseUrl: string | undefined;

let sidecar: SidecarProcess;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "mcp-conformance-"));
  if (hasDatabase) databaseUrl = await databaseUrlFor(SCHEMA_KEY);
  mkdirSync(path.join(work, "home"));
  sidecar = await startSidecar(sidecarEnv());
});
afterAll(async () => {
  await sidecar?.stop();
  await dropSchema(SCHEMA_KEY);
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs the conformance CLI with HOME and the working directory in the temporary folder. */
const conformance = (args: string[]) =>
  run(process.execPath, [CONFORMANCE_BIN, ...args], { HOME: path.join(work, "home"), NO_COLOR: "1" }, work);

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description?: string;
  errorMessage?: string;
}

/** checks.json of one scenario from an output directory (`server-<scenario>-<timestamp>/`). */
function checksOf(outputDir: string, scenario: string): Check[] {
  const dirs = readdirSync(outputDir).filter((name) => name.startsWith(`server-${scenario}-`));
  expect(dirs, `results of ${scenario} in ${outputDir}`).toHaveLength(1);
  return JSON.parse(readFileSync(path.join(outputDir, dirs[0] ?? "", "checks.json"), "utf8")) as Check[];
}

const mcpUrl = () => `${sidecar.base}/mcp`;

describe(`MCP conformance suite ${conformancePackage.version}`, () => {
  it("knows every scenario named here, and no other", async () => {
    const listed = await conformance(["list", "--server"]);
    expect(listed.code, listed.stderr).toBe(0);
    const scenarios = [...listed.stdout.matchAll(/^\s+-\s+([\w-]+)/gm)].map((m) => m[1]);
    const baseline = baselineScenarios();
    expect(baseline.filter((name) => GENERIC.includes(name))).toEqual([]);
    // A new scenario in a newer suite (e.g. 0.2's server-session-lifecycle) must be sorted in here.
    expect(scenarios.toSorted()).toEqual([...GENERIC, ...baseline, ...VACUOUS].toSorted());
  });

  it.each(GENERIC)("%s passes on its own", async (scenario) => {
    const out = path.join(work, `single-${scenario}`);
    const result = await conformance(["server", "--url", mcpUrl(), "--scenario", scenario, "-o", out]);
    const checks = checksOf(out, scenario);
    const detail = `${result.stdout}\n${result.stderr}`;
    expect(result.code, detail).toBe(0);
    expect(result.stdout).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
    expect(checks.filter((c) => c.status !== "SUCCESS" && c.status !== "INFO")).toEqual([]);
    expect(checks.some((c) => c.status === "SUCCESS")).toBe(true);
  });

  it("the whole active suite fails exactly the fixture-only scenarios of the baseline", async () => {
    const out = path.join(work, "full");
    const result = await conformance(["server", "--url", mcpUrl(), "--expected-failures", BASELINE_FILE, "-o", out]);
    const detail = `${result.stdout}\n${result.stderr}`;
    expect(result.code, detail).toBe(0);
    expect(result.stdout).toContain("Baseline check passed");

    const summary = result.stdout.slice(result.stdout.indexOf("=== SUMMARY ==="));
    const passed = [...summary.matchAll(/^✓ ([\w-]+):/gm)].map((m) => m[1]);
    const failed = [...summary.matchAll(/^✗ ([\w-]+):/gm)].map((m) => m[1] ?? "");
    expect(passed.toSorted()).toEqual(GENERIC.toSorted());
    const expectedFailures = baselineScenarios().filter((name) => !PENDING_IN_BASELINE.includes(name));
    expect(failed.toSorted()).toEqual(expectedFailures.toSorted());

    // Each one fails on a fixture name (or on resources/subscribe, which is not offered), never on our tools.
    for (const scenario of failed) {
      const messages = checksOf(out, scenario)
        .filter((c) => c.status === "FAILURE")
        .map((c) => c.errorMessage ?? "");
      expect(messages.length, scenario).toBeGreaterThan(0);
      for (const message of messages) {
        expect(message, scenario).toMatch(/\btest_\w+|test:\/\/|json_schema_2020_12_tool|-32601: Method not found/);
      }
    }
    // No false pass: an unknown tool is a protocol error here, so tools-call-error cannot "pass" on it.
    const [toolsCallError] = checksOf(out, "tools-call-error");
    expect(toolsCallError?.status).toBe("FAILURE");
    expect(toolsCallError?.errorMessage).toContain("MCP error -32602: Tool test_error_handling not found");
  });
});

// --- What the suite (0.1.16) does not check, on the same running sidecar.

const HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2025-11-25",
};

async function rpc(base: string, body: object, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", ...body }),
  });
  const text = await response.text();
  return { response, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

async function initialize(base: string) {
  const { response, json } = await rpc(base, {
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1" } },
  });
  expect(response.status).toBe(200);
  const session = response.headers.get("mcp-session-id") ?? "";
  expect(session).toMatch(/^[\x21-\x7e]+$/);
  return { session, result: json?.result as Record<string, unknown> };
}

describe("beyond the 0.1.16 suite", () => {
  it("answers an unknown tool with a JSON-RPC error, not an isError result", async () => {
    const { session } = await initialize(sidecar.base);
    const { response, json } = await rpc(
      sidecar.base,
      { id: 2, method: "tools/call", params: { name: "test_simple_text", arguments: {} } },
      { "Mcp-Session-Id": session },
    );
    expect(response.status).toBe(200);
    expect(json).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32602, message: "Tool test_simple_text not found" },
    });
  });

  it("rejects a foreign Origin even with a valid Host (the suite sends both together)", async () => {
    const { response, json } = await rpc(
      sidecar.base,
      { id: 1, method: "ping" },
      { Origin: "http://evil.example.com" },
    );
    expect(response.status).toBe(403);
    expect(json?.error).toMatchObject({ code: -32000 });
  });

  // The 0.2 suite's server-session-lifecycle: DELETE with the id → 2xx (or 405), then that id → 404.
  it("ends a session on DELETE: the id is then 404 for POST and DELETE", async () => {
    const { session } = await initialize(sidecar.base);
    const ping = () => rpc(sidecar.base, { id: 3, method: "ping" }, { "Mcp-Session-Id": session });
    expect((await ping()).response.status).toBe(200);
    const deleted = await fetch(`${sidecar.base}/mcp`, { method: "DELETE", headers: { "Mcp-Session-Id": session } });
    expect(deleted.status).toBe(200);
    const after = await ping();
    expect(after.response.status).toBe(404);
    expect(after.json?.error).toMatchObject({ code: -32001 });
    const again = await fetch(`${sidecar.base}/mcp`, { method: "DELETE", headers: { "Mcp-Session-Id": session } });
    expect(again.status).toBe(404);
    const missing = await rpc(sidecar.base, { id: 4, method: "ping" });
    expect(missing.response.status).toBe(400);
  });

  // Terminated ids are kept in the shared database (and announced to running processes), so a
  // process started later with the same secret and database refuses the id too. Without a database
  // they live in the terminating process only (documented in docs/deploy/replicas.md).
  it.runIf(hasDatabase)(
    "keeps a terminated session terminated in another process with the same secret and database",
    async () => {
      const { session } = await initialize(sidecar.base);
      const deleted = await fetch(`${sidecar.base}/mcp`, { method: "DELETE", headers: { "Mcp-Session-Id": session } });
      expect(deleted.status).toBe(200);
      const replica = await startSidecar(sidecarEnv());
      try {
        const { response } = await rpc(replica.base, { id: 5, method: "ping" }, { "Mcp-Session-Id": session });
        expect(response.status).toBe(404);
      } finally {
        await replica.stop();
      }
    },
  );

  // SDK 1.32's McpServer declares listChanged: true for whatever it registers; no list_changed
  // notification can ever arrive here (a new server per request, no GET stream), so none is promised.
  it("does not promise list_changed notifications it never sends", async () => {
    const { result } = await initialize(sidecar.base);
    const capabilities = result.capabilities as Record<string, { listChanged?: boolean }>;
    expect(capabilities.tools?.listChanged ?? false).toBe(false);
    expect(capabilities.resources?.listChanged ?? false).toBe(false);
    expect(capabilities.prompts?.listChanged ?? false).toBe(false);
  });
});
