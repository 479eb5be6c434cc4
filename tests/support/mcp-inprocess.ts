/**
 * The in-process MCP server the mcp-*.test.ts files share: one app on a loopback port per test file,
 * an SDK client connected to it, the tools it lists with their schemas compiled, and the published
 * reviews to check answers against. The bindings are live: they are set in setupInProcessMcp's
 * beforeAll, so tests read them only inside hooks and tests.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import { SessionTokens } from "@riverbend/server/mcp/session-tokens.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import type { ReviewsDocument } from "@riverbend/shared/schemas/reviews-document.ts";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { pino } from "pino";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { listen } from "./http.ts";

export const SITE = "https://reviews.test";
export const SECRET = "mcp-test-secret-0123456789abcdefghijklmnop";
export const TOOL_NAMES = ["get_business", "search_reviews", "get_review", "get_reviews_since", "get_insights"];
export const DOCUMENTS = [
  { uri: `${SITE}/reviews.json`, path: "/reviews.json", mimeType: "application/json" },
  { uri: `${SITE}/insights.json`, path: "/insights.json", mimeType: "application/json" },
  { uri: `${SITE}/api/feed.json`, path: "/api/feed.json", mimeType: "application/feed+json" },
  { uri: `${SITE}/feed.xml`, path: "/feed.xml", mimeType: "application/atom+xml" },
];
export const TEMPLATE = "reviews://review/{id}";

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
// ajv-formats is CommonJS with `exports.default`: the default import is the plugin or the namespace.
const addFormats: FormatsPlugin =
  (addFormatsPlugin as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsPlugin as unknown as FormatsPlugin);

export const logger = pino({ level: "silent" });
export let store: BundleStore;
export let server: { base: string; close: () => Promise<void> };
export let client: Client;
let transport: StreamableHTTPClientTransport;
export let tools: Tool[];
export let document: ReviewsDocument;
export let reviews: Review[];
const outputValidators = new Map<string, ValidateFunction>();
export const inputValidators = new Map<string, ValidateFunction>();

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv;
}

/** Registers the test file's hooks that start the server and client before its tests and stop them after. */
export function setupInProcessMcp(): void {
  beforeAll(async () => {
    store = new BundleStore(inject("sampleDist"), logger);
    const app = createApp({
      config: { SITE_URL: SITE, SERVE_STATIC: true, MCP_RATE_LIMIT_PER_MINUTE: 100_000 },
      store,
      logger,
      sessions: new SessionTokens(SECRET, 3600),
    });
    server = await listen(app);
    client = new Client({ name: "vitest", version: "1.0.0" });
    transport = new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`));
    await client.connect(transport);
    tools = (await client.listTools()).tools;
    for (const tool of tools) {
      outputValidators.set(tool.name, newAjv().compile(tool.outputSchema ?? {}));
      inputValidators.set(tool.name, newAjv().compile(tool.inputSchema));
    }
    document = (await (await fetch(`${server.base}/reviews.json`)).json()) as ReviewsDocument;
    reviews = [...document.reviews];
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
}

/** Calls a tool through the SDK client and checks the result's shape against the tool's own schema. */
export async function callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const structured = result.structuredContent as Record<string, unknown>;
  expect(structured).toBeDefined();
  const validate = outputValidators.get(name);
  expect(validate?.(structured), JSON.stringify(validate?.errors)).toBe(true);
  expect(result.content).toEqual([{ type: "text", text: JSON.stringify(structured) }]);
  return structured;
}

export const idsOf = (list: readonly { id: string }[]) => list.map((r) => r.id);
export const newestFirst = (a: Review, b: Review) => (a.date === b.date ? 0 : a.date < b.date ? 1 : -1);
