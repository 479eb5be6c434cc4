import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type BuildRun, ROOT, runCommand } from "./support/run-build.ts";
import { type SidecarProcess, startSidecarProcess } from "./support/sidecar-process.ts";

/**
 * The MCP Inspector CLI (@modelcontextprotocol/inspector 2.x, `--cli`) against the sidecar in a child
 * process: what a developer sees when they point the official tool at /mcp. Output is
 * `--format json -q`: one JSON line on stdout (`{"result":…}`), errors as one JSON line on stderr.
 * Exit codes (v2): 0 ok, 1 usage, 4 unreachable, 5 tool isError or unknown tool, 6 --strict failure.
 */

const INSPECTOR_DIR = path.join(ROOT, "node_modules/@modelcontextprotocol/inspector");
const inspectorPackage = JSON.parse(readFileSync(path.join(INSPECTOR_DIR, "package.json"), "utf8")) as {
  version: string;
  bin: Record<string, string>;
};
const INSPECTOR_BIN = path.join(INSPECTOR_DIR, inspectorPackage.bin.inspector ?? "clients/launcher/build/index.js");
const EXIT_TOOL_ERROR = 5;

let sidecar: SidecarProcess;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(path.join(tmpdir(), "mcp-inspector-"));
  mkdirSync(path.join(home, "work"));
  // `node --import tsx packages/server/src/main.ts` on an OS-assigned port, addressed as http://localhost:PORT.
  sidecar = await startSidecarProcess({
    host: "localhost",
    outputLimit: 20_000,
    env: {
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DIST_DIR: inject("localhostDist"),
      SITE_URL: "http://localhost",
      MCP_SESSION_SECRET: "inspector-test-secret-0123456789abcdef",
      MCP_RATE_LIMIT_PER_MINUTE: "100000",
    },
  });
});
afterAll(async () => {
  await sidecar?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** `inspector --cli URL …args --format json -q`, with HOME in a temporary folder (it writes ~/.mcp-inspector). */
function inspector(args: string[]): Promise<BuildRun> {
  return runCommand(
    process.execPath,
    [INSPECTOR_BIN, "--cli", `${sidecar.base}/mcp`, ...args, "--format", "json", "-q"],
    {
      cwd: path.join(home, "work"),
      env: { HOME: home, NO_COLOR: "1" },
      timeoutMs: 30_000,
    },
  );
}

/** The one JSON line of stdout (or stderr). */
function jsonLine(text: string): Record<string, unknown> {
  const lines = text.trim().split("\n");
  expect(lines, text).toHaveLength(1);
  return JSON.parse(lines[0] ?? "") as Record<string, unknown>;
}

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface SearchPage {
  total: number;
  count: number;
  limit: number;
  next_cursor: string | null;
  reviews: { id: string; rating: number }[];
}

describe(`MCP Inspector CLI ${inspectorPackage.version}`, () => {
  it("is version 2 (v1 needs --transport http and has other flags and exit codes)", () => {
    expect(Number(inspectorPackage.version.split(".")[0])).toBeGreaterThanOrEqual(2);
  });

  it("tools/list: the five read-only tools with portable schemas (--strict exits 0)", async () => {
    const run = await inspector(["--method", "tools/list", "--strict"]);
    expect(run.code, run.stderr).toBe(0);
    const { result } = jsonLine(run.stdout) as {
      result: { tools: { name: string; description: string; inputSchema: { type: string }; annotations: object }[] };
    };
    expect(result.tools.map((t) => t.name)).toEqual([
      "get_business",
      "search_reviews",
      "get_review",
      "get_reviews_since",
      "get_insights",
    ]);
    for (const tool of result.tools) {
      expect(tool.description.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
  });

  it("tools/call search_reviews rating=5 limit=2: a page that matches GET /api/reviews/search", async () => {
    const run = await inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "search_reviews",
      "--tool-arg",
      "rating=5",
      "--tool-arg",
      "limit=2",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const { result } = jsonLine(run.stdout) as { result: ToolResult };
    expect(result.isError ?? false).toBe(false);
    const page = result.structuredContent as unknown as SearchPage;
    expect(page.count).toBe(2);
    expect(page.limit).toBe(2);
    expect(page.reviews.map((r) => r.rating)).toEqual([5, 5]);
    expect(page.total).toBeGreaterThan(2);
    expect(typeof page.next_cursor).toBe("string");
    // The text block repeats the structured result.
    expect(JSON.parse(result.content[0]?.text ?? "")).toEqual(page);

    const http = (await (await fetch(`${sidecar.base}/api/reviews/search?rating=5&limit=2`)).json()) as SearchPage;
    expect(page).toEqual(http);
  });

  it("tools/call search_reviews rating=7: an isError result naming the argument, exit 5", async () => {
    const run = await inspector(["--method", "tools/call", "--tool-name", "search_reviews", "--tool-arg", "rating=7"]);
    expect(run.code).toBe(EXIT_TOOL_ERROR);
    const { result } = jsonLine(run.stdout) as { result: ToolResult };
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]?.text).toBe(
      "Input validation error: Invalid arguments for tool search_reviews: rating: must be a whole number from 1 to 5",
    );
    expect(jsonLine(run.stderr)).toMatchObject({ error: { code: "tool_is_error" } });
  });

  it("tools/call of an unknown tool: tool_not_found, exit 5", async () => {
    const run = await inspector(["--method", "tools/call", "--tool-name", "delete_reviews"]);
    expect(run.code).toBe(EXIT_TOOL_ERROR);
    expect(run.stdout.trim()).toBe("");
    expect(jsonLine(run.stderr)).toMatchObject({ error: { code: "tool_not_found" } });
  });

  it("resources/templates/list and resources/read of one review", async () => {
    const templates = await inspector(["--method", "resources/templates/list"]);
    expect(templates.code, templates.stderr).toBe(0);
    const listed = jsonLine(templates.stdout) as { result: { resourceTemplates: { uriTemplate: string }[] } };
    expect(listed.result.resourceTemplates.map((t) => t.uriTemplate)).toEqual(["reviews://review/{id}"]);

    const search = (await (await fetch(`${sidecar.base}/api/reviews/search?limit=1`)).json()) as SearchPage;
    const id = search.reviews[0]?.id ?? "";
    const read = await inspector(["--method", "resources/read", "--uri", `reviews://review/${id}`]);
    expect(read.code, read.stderr).toBe(0);
    const { result } = jsonLine(read.stdout) as { result: { contents: { uri: string; text: string }[] } };
    expect(result.contents[0]?.uri).toBe(`reviews://review/${id}`);
    expect(JSON.parse(result.contents[0]?.text ?? "")).toEqual(search.reviews[0]);
  });
});
