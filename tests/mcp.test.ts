/**
 * The MCP server at POST /mcp, in process: the SDK's own client for tools, resources, the review
 * template, prompts, completions and logging; raw HTTP for the transport's errors, sessions and the
 * security checks; and a property test that search_reviews and GET /api/reviews/search agree.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import fc from "fast-check";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApp } from "../sidecar/src/app.ts";
import { BundleStore } from "../sidecar/src/bundle/bundle-store.ts";
import { SessionTokens } from "../sidecar/src/mcp/session-tokens.ts";
import type { Review } from "../src/schemas/review.ts";
import type { ReviewsDocument } from "../src/schemas/reviews-document.ts";
import { listen } from "./support/http.ts";
import {
  callMcp,
  initializeBody,
  initializeRaw,
  MCP_HEADERS,
  postMcp,
  rawHttp,
  sessionRequest,
} from "./support/mcp-rpc.ts";

const SITE = "https://reviews.test";
const SECRET = "mcp-test-secret-0123456789abcdefghijklmnop";
const TOOL_NAMES = ["get_business", "search_reviews", "get_review", "get_reviews_since", "get_insights"];
const DOCUMENTS = [
  { uri: `${SITE}/reviews.json`, path: "/reviews.json", mimeType: "application/json" },
  { uri: `${SITE}/insights.json`, path: "/insights.json", mimeType: "application/json" },
  { uri: `${SITE}/api/feed.json`, path: "/api/feed.json", mimeType: "application/feed+json" },
  { uri: `${SITE}/feed.xml`, path: "/feed.xml", mimeType: "application/atom+xml" },
];
const TEMPLATE = "reviews://review/{id}";

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
// ajv-formats is CommonJS with `exports.default`: the default import is the plugin or the namespace.
const addFormats: FormatsPlugin =
  (addFormatsPlugin as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsPlugin as unknown as FormatsPlugin);

const logger = pino({ level: "silent" });
let store: BundleStore;
let server: { base: string; close: () => Promise<void> };
let client: Client;
let transport: StreamableHTTPClientTransport;
let tools: Tool[];
let document: ReviewsDocument;
let reviews: Review[];
const outputValidators = new Map<string, ValidateFunction>();
const inputValidators = new Map<string, ValidateFunction>();

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv;
}

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

/** Calls a tool through the SDK client and checks the result's shape against the tool's own schema. */
async function callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const structured = result.structuredContent as Record<string, unknown>;
  expect(structured).toBeDefined();
  const validate = outputValidators.get(name);
  expect(validate?.(structured), JSON.stringify(validate?.errors)).toBe(true);
  expect(result.content).toEqual([{ type: "text", text: JSON.stringify(structured) }]);
  return structured;
}

/** Calls a tool expecting a tool-level error; returns its message. */
async function toolError(name: string, args: unknown): Promise<string> {
  const result = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const [first] = result.content;
  expect(first?.type).toBe("text");
  return first?.type === "text" ? first.text : "";
}

const idsOf = (list: readonly { id: string }[]) => list.map((r) => r.id);
const newestFirst = (a: Review, b: Review) => (a.date === b.date ? 0 : a.date < b.date ? 1 : -1);

describe("tools through the SDK client", () => {
  it("lists exactly the five tools, each with title, description, closed input schema, output schema and hints", () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/\S/);
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.annotations, tool.name).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false,
      });
      // Schemas are self-contained: many clients cannot resolve references.
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain("$ref");
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toContain("$ref");
      // The published input schema itself refuses an unknown argument.
      expect(inputValidators.get(tool.name)?.({ no_such_argument: 1 }), tool.name).toBe(false);
    }
    expect(inputValidators.get("search_reviews")?.({ rating: 5, limit: 3, sort: "oldest" })).toBe(true);
    expect(inputValidators.get("get_review")?.({})).toBe(false);
  });

  it("get_business returns the business and its aggregate rating", async () => {
    const result = await callTool("get_business", {});
    expect(result).toEqual({ business: document.business, aggregate_rating: document.aggregate_rating });
    // No arguments at all is the same call.
    const bare = (await client.callTool({ name: "get_business" })) as CallToolResult;
    expect(bare.structuredContent).toEqual(result);
  });

  it("search_reviews filters, sorts and pages with next_cursor", async () => {
    const first = await callTool("search_reviews", { mentions_service: "drain-cleaning", limit: 7 });
    const matching = reviews.filter((r) => r.services.includes("drain-cleaning"));
    expect(first.total).toBe(matching.length);
    expect(first.count).toBe(7);
    expect(first.limit).toBe(7);
    const page1 = first.reviews as Review[];
    for (const review of page1) expect(review.services).toContain("drain-cleaning");
    expect([...page1].sort(newestFirst).map((r) => r.date)).toEqual(page1.map((r) => r.date));
    expect(typeof first.next_cursor).toBe("string");
    const second = await callTool("search_reviews", {
      mentions_service: "drain-cleaning",
      limit: 7,
      cursor: first.next_cursor,
    });
    const page2 = second.reviews as Review[];
    expect(page2).toHaveLength(7);
    expect(idsOf(page2).some((id) => idsOf(page1).includes(id))).toBe(false);

    const fives = await callTool("search_reviews", { rating: 5, sort: "oldest", limit: 100 });
    expect(fives.total).toBe(reviews.filter((r) => r.rating === 5).length);
    for (const review of fives.reviews as Review[]) expect(review.rating).toBe(5);
  });

  it("get_review returns one review exactly as published", async () => {
    for (const review of [reviews[0], reviews[reviews.length - 1], reviews[100]] as Review[]) {
      expect(await callTool("get_review", { id: review.id })).toEqual({ review });
    }
  });

  it("get_reviews_since returns newest first, up to limit, with the total", async () => {
    const since = reviews.filter((r) => r.date >= "2026-01-01");
    const result = await callTool("get_reviews_since", { date: "2026-01-01", limit: 3 });
    expect(result.since).toBe("2026-01-01");
    expect(result.total).toBe(since.length);
    expect(result.count).toBe(3);
    expect(idsOf(result.reviews as Review[])).toEqual(idsOf([...since].sort(newestFirst).slice(0, 3)));
    const all = await callTool("get_reviews_since", { date: "2026-01-01" });
    expect(all.count).toBe(Math.min(100, since.length));
  });

  it("get_insights returns the published insights, narrowed as asked", async () => {
    const insights = (await (await fetch(`${server.base}/insights.json`)).json()) as Record<string, unknown> & {
      entities: { technicians: { name: string }[]; services: { id: string }[]; service_areas: unknown[] };
    };
    const whole = await callTool("get_insights", {});
    expect(whole.as_of).toBe(insights.as_of);
    expect(whole.review_count).toBe(insights.review_count);
    expect((whole.sections as Record<string, unknown>).entities).toEqual(insights.entities);

    const dana = await callTool("get_insights", { section: "entities", technician: "dana" });
    const entities = (dana.sections as { entities: typeof insights.entities }).entities;
    expect(entities.technicians.map((t) => t.name)).toEqual(["Dana W."]);
    expect(entities.services).toEqual(insights.entities.services);

    const drains = await callTool("get_insights", { service: "DRAIN-CLEANING" });
    const drainEntities = (drains.sections as { entities: typeof insights.entities }).entities;
    expect(drainEntities.services.map((s) => s.id)).toEqual(["drain-cleaning"]);
  });

  it("answers invalid arguments with a tool result (isError) that names the argument", async () => {
    expect(await toolError("search_reviews", { rating: 7 })).toMatch(/rating: must be a whole number from 1 to 5/);
    expect(await toolError("search_reviews", { min_ratting: 3 })).toMatch(/min_ratting: is not a parameter/);
    expect(await toolError("search_reviews", { limit: "ten" })).toMatch(/limit:/);
    expect(await toolError("search_reviews", { since: "2025-03-01", until: "2025-01-01" })).toMatch(/since:/);
    expect(await toolError("get_review", {})).toMatch(/id:/);
    expect(await toolError("get_review", { id: "1999-01-01-nobody" })).toMatch(/id: no review has the id/);
    expect(await toolError("get_reviews_since", { date: "2025-02-30" })).toMatch(/date: must be a real calendar date/);
    expect(await toolError("get_reviews_since", { date: "2025-01-01", limit: 0 })).toMatch(/limit:/);
    expect(await toolError("get_business", { verbose: true })).toMatch(/verbose: is not a parameter/);
    expect(await toolError("get_insights", { section: "gossip" })).toMatch(/section: must be one of/);
  });

  it("answers an unknown tool with a JSON-RPC error, not a tool result", async () => {
    const error = await client.callTool({ name: "delete_everything", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain("delete_everything");
  });
});

describe("resources through the SDK client", () => {
  it("lists the four published documents under their public URLs with their media types", async () => {
    const { resources } = await client.listResources();
    expect(resources.map(({ uri, mimeType }) => ({ uri, mimeType }))).toEqual(
      DOCUMENTS.map(({ uri, mimeType }) => ({ uri, mimeType })),
    );
    for (const resource of resources) {
      expect(resource.name, resource.uri).toMatch(/\S/);
      expect(resource.title, resource.uri).toMatch(/\S/);
    }
  });

  it("reads each document with exactly the text served at its public path", async () => {
    for (const doc of DOCUMENTS) {
      const { contents } = await client.readResource({ uri: doc.uri });
      const published = await (await fetch(`${server.base}${doc.path}`)).text();
      expect(contents, doc.uri).toEqual([{ uri: doc.uri, mimeType: doc.mimeType, text: published }]);
    }
  });

  it("offers the one-review template and reads reviews through it", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toHaveLength(1);
    expect(resourceTemplates[0]).toMatchObject({ uriTemplate: TEMPLATE, mimeType: "application/json" });
    for (const review of reviews.slice(0, 5)) {
      const uri = `reviews://review/${review.id}`;
      const { contents } = await client.readResource({ uri });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri, mimeType: "application/json" });
      const [content] = contents;
      expect(content && "text" in content).toBe(true);
      expect(JSON.parse(content && "text" in content ? content.text : "null")).toEqual(review);
    }
  });

  it("answers a review id that does not exist with resource-not-found (-32002)", async () => {
    const error = await client.readResource({ uri: "reviews://review/1999-01-01-nobody" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32002);
  });
});

/** Review ids a prompt lists, in order (each line starts with `- id <id> |`). */
function listedIds(text: string): string[] {
  return [...text.matchAll(/^- id (\S+) \|/gm)].map((m) => m[1] as string);
}

async function promptText(name: string, args: Record<string, string> = {}): Promise<string> {
  const prompt = await client.getPrompt({ name, arguments: args });
  expect(prompt.messages).toHaveLength(1);
  const [message] = prompt.messages;
  expect(message?.role).toBe("user");
  expect(message?.content.type).toBe("text");
  return message?.content.type === "text" ? message.content.text : "";
}

describe("prompts through the SDK client", () => {
  it("lists summarize_reviews (all arguments optional) and answer_customer_question (question required)", async () => {
    const { prompts } = await client.listPrompts();
    const byName = new Map(prompts.map((p) => [p.name, p]));
    expect([...byName.keys()].sort()).toEqual(["answer_customer_question", "summarize_reviews"]);
    const summarize = byName.get("summarize_reviews");
    expect(summarize?.arguments?.map((a) => [a.name, a.required ?? false])).toEqual([
      ["technician", false],
      ["service", false],
      ["since", false],
    ]);
    expect(byName.get("answer_customer_question")?.arguments?.map((a) => [a.name, a.required])).toEqual([
      ["question", true],
    ]);
  });

  it("summarize_reviews embeds the newest reviews with their ids and tells the model to cite them", async () => {
    const text = await promptText("summarize_reviews");
    expect(text).toContain("Cite the review ids");
    expect(text).toContain(document.business.name);
    expect(listedIds(text)).toEqual(idsOf([...reviews].sort(newestFirst).slice(0, 100)));
  });

  it("summarize_reviews narrows by technician, service and since like search_reviews does", async () => {
    const args = { technician: "Dana W.", service: "repiping", since: "2024-01-01" };
    const text = await promptText("summarize_reviews", args);
    expect(text).toContain("Cite the review ids");
    expect(text).toContain("technician Dana W., service repiping, since 2024-01-01");
    const search = await callTool("search_reviews", {
      mentions_technician: args.technician,
      mentions_service: args.service,
      since: args.since,
      limit: 100,
    });
    const ids = listedIds(text);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(idsOf(search.reviews as Review[]));
    for (const id of ids) {
      const review = reviews.find((r) => r.id === id);
      expect(review?.technicians).toContain("Dana W.");
      expect(review?.services).toContain("repiping");
      expect(review && review.date >= "2024-01-01").toBe(true);
    }
  });

  it("answer_customer_question embeds the business facts and relevant reviews and asks for cited ids", async () => {
    const question = "Can you fix a water heater before Thanksgiving?";
    const text = await promptText("answer_customer_question", { question });
    expect(text).toContain(question);
    expect(text).toContain("Cite the review ids");
    expect(text).toContain(document.business.telephone);
    const ids = listedIds(text);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThanOrEqual(30);
    for (const id of ids) expect(reviews.some((r) => r.id === id)).toBe(true);
  });

  it("refuses answer_customer_question without a question", async () => {
    const error = await client.getPrompt({ name: "answer_customer_question", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });
});

describe("completions and logging through the SDK client", () => {
  const complete = async (
    ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string },
    name: string,
    value: string,
  ) => (await client.complete({ ref, argument: { name, value } })).completion;
  const summarize = { type: "ref/prompt" as const, name: "summarize_reviews" };
  const template = { type: "ref/resource" as const, uri: TEMPLATE };

  it("completes technician names and service ids of summarize_reviews, case-insensitively", async () => {
    const names = document.business.technicians.map((t) => t.name);
    expect((await complete(summarize, "technician", "ch")).values).toEqual(["Chris M.", "Chris A."]);
    expect((await complete(summarize, "technician", "")).values).toEqual(names);
    expect((await complete(summarize, "technician", "zz")).values).toEqual([]);
    expect((await complete(summarize, "service", "WATER")).values).toEqual([
      "water-heater-repair",
      "water-heater-installation",
    ]);
  });

  it("completes the review id of the template", async () => {
    const values = (await complete(template, "id", "2023-01-")).values;
    const expected = idsOf(reviews).filter((id) => id.startsWith("2023-01-"));
    expect(values.length).toBeGreaterThan(0);
    expect([...values].sort()).toEqual([...expected].sort());
    expect((await complete(template, "id", "1999")).values).toEqual([]);
    const all = await complete(template, "id", "");
    expect(all.values).toHaveLength(100);
  });

  // BUG: with an empty prefix 272 ids match, but the template's completer slices to 100 before the SDK
  // counts them (sidecar/src/mcp/server.ts, `.slice(0, 100)` in the `id` completer), so the result says
  // total: 100, hasMore: false — a client is told there is nothing more to page through. Without the
  // slice the SDK itself caps values at 100 and reports total 272 and hasMore true.
  it("reports that more review ids match than the 100 it returns (hasMore/total)", async () => {
    const all = await complete(template, "id", "");
    expect(all.values).toHaveLength(100);
    expect(all.hasMore).toBe(true);
    expect(all.total).toBe(reviews.length);
  });

  it("accepts logging/setLevel", async () => {
    await expect(client.setLoggingLevel("debug")).resolves.toEqual({});
    await expect(client.setLoggingLevel("error")).resolves.toEqual({});
  });
});

// ---------------------------------------------------------------------------
// Raw HTTP: the transport, sessions, JSON-RPC errors and security
// ---------------------------------------------------------------------------

describe("initialize over raw HTTP (the documented curl call)", () => {
  for (const version of ["2025-06-18", "2025-11-25"]) {
    it(`initializes with protocol ${version}, mints a signed session and serves requests in it`, async () => {
      const init = await postMcp(server.base, initializeBody(version));
      expect(init.status).toBe(200);
      expect(init.headers.get("content-type")).toMatch(/^application\/json/);
      const session = init.headers.get("mcp-session-id") ?? "";
      expect(session).toMatch(/^\d+\.\d+\.[\w-]+\.[\w-]+$/);
      expect(init.json).toMatchObject({ jsonrpc: "2.0", id: 1 });
      expect(init.json?.result.protocolVersion).toBe(version);
      expect(init.json?.result.serverInfo.name).toBe("riverbend-reviews");
      expect(Object.keys(init.json?.result.capabilities).sort()).toEqual(
        ["completions", "logging", "prompts", "resources", "tools"].sort(),
      );

      const initialized = await postMcp(
        server.base,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { "Mcp-Session-Id": session, "Mcp-Protocol-Version": version },
      );
      expect(initialized.status).toBe(202);

      const list = await sessionRequest(server.base, session, { id: 2, method: "tools/list" }, version);
      expect(list.status).toBe(200);
      expect(list.json?.id).toBe(2);
      expect(list.json?.result.tools.map((t: { name: string }) => t.name).sort()).toEqual([...TOOL_NAMES].sort());

      const call = await sessionRequest(
        server.base,
        session,
        { id: "three", method: "tools/call", params: { name: "get_review", arguments: { id: reviews[0]?.id } } },
        version,
      );
      expect(call.status).toBe(200);
      expect(call.json?.id).toBe("three");
      expect(call.json?.result.structuredContent).toEqual({ review: reviews[0] });
    });
  }

  // BUG: sidecar/src/mcp/server.ts declares `tools: { listChanged: false }`, but SDK 1.32's McpServer
  // constructor sees a declared tools capability, installs its own tool handlers and merges in
  // `listChanged: true`, so initialize advertises tools.listChanged: true (resources and prompts get
  // true from registerResource/registerPrompt too). This server can never send list_changed
  // notifications: it answers in JSON mode only and offers no GET stream.
  it("does not advertise tools/list_changed notifications it cannot send", async () => {
    const init = await postMcp(server.base, initializeBody("2025-06-18"));
    expect(init.json?.result.capabilities.tools).toEqual({ listChanged: false });
  });

  it("answers an unsupported protocol version with a version it supports", async () => {
    const init = await postMcp(server.base, initializeBody("1999-01-01"));
    expect(init.status).toBe(200);
    expect(["2025-11-25", "2025-06-18"]).toContain(init.json?.result.protocolVersion);
  });
});

describe("sessions over raw HTTP", () => {
  let session: string;
  beforeAll(async () => {
    session = (await initializeRaw(server.base)).session;
  });

  it("answers a request without Mcp-Session-Id with 400 and a JSON-RPC error echoing the id", async () => {
    const reply = await postMcp(server.base, { jsonrpc: "2.0", id: 5, method: "tools/list" });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ jsonrpc: "2.0", id: 5, error: { code: -32000 } });
    expect(reply.json?.error?.message).toMatch(/Mcp-Session-Id/);
    const notification = await postMcp(server.base, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(notification.status).toBe(400);
  });

  it("answers unknown, forged, foreign and tampered session ids with 404 and -32001", async () => {
    const [issued, expires, nonce, signature] = session.split(".") as [string, string, string, string];
    const foreign = new SessionTokens("another-secret-another-secret-another", 3600).issue();
    const candidates = [
      "no-such-session",
      `${issued}.${expires}.${nonce}.${"A".repeat(signature.length)}`,
      `${issued}.${Number(expires) + 86_400}.${nonce}.${signature}`,
      `${issued}.${expires}.${nonce}x.${signature}`,
      foreign,
      `${session}.extra`,
      "x".repeat(5000),
    ];
    for (const candidate of candidates) {
      const reply = await sessionRequest(server.base, candidate, { id: 9, method: "tools/list" });
      expect(reply.status, candidate).toBe(404);
      expect(reply.json, candidate).toMatchObject({ jsonrpc: "2.0", id: 9, error: { code: -32001 } });
    }
  });

  it("answers an expired session with 404 and -32001", async () => {
    let now = Date.UTC(2026, 0, 1);
    const tokens = new SessionTokens(SECRET, 60, () => now);
    const expiring = await listen(
      createApp({
        config: { SITE_URL: SITE, SERVE_STATIC: false, MCP_RATE_LIMIT_PER_MINUTE: 1000 },
        store,
        logger,
        sessions: tokens,
      }),
    );
    try {
      const { session: short } = await initializeRaw(expiring.base);
      expect((await sessionRequest(expiring.base, short, { id: 1, method: "ping" })).status).toBe(200);
      now += 59_000;
      expect((await sessionRequest(expiring.base, short, { id: 2, method: "ping" })).status).toBe(200);
      now += 2_000;
      const expired = await sessionRequest(expiring.base, short, { id: 3, method: "ping" });
      expect(expired.status).toBe(404);
      expect(expired.json).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32001 } });
    } finally {
      await expiring.close();
    }
  });

  it("terminates a session on DELETE; the session is then 404 for POST and DELETE", async () => {
    const { session: doomed } = await initializeRaw(server.base);
    expect((await sessionRequest(server.base, doomed, { id: 1, method: "ping" })).status).toBe(200);
    const deleted = await callMcp(server.base, "DELETE", { "Mcp-Session-Id": doomed });
    expect(deleted.status).toBe(200);
    const after = await sessionRequest(server.base, doomed, { id: 2, method: "tools/list" });
    expect(after.status).toBe(404);
    expect(after.json).toMatchObject({ jsonrpc: "2.0", id: 2, error: { code: -32001 } });
    expect((await callMcp(server.base, "DELETE", { "Mcp-Session-Id": doomed })).status).toBe(404);
    // Other sessions are untouched.
    expect((await sessionRequest(server.base, session, { id: 3, method: "ping" })).status).toBe(200);
  });

  it("answers DELETE without a session id with 400", async () => {
    const reply = await callMcp(server.base, "DELETE");
    expect(reply.status).toBe(400);
    expect(reply.json?.error?.code).toBe(-32000);
  });

  it("terminates the SDK client's session with terminateSession()", async () => {
    const own = new Client({ name: "vitest-terminate", version: "1.0.0" });
    const ownTransport = new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`));
    await own.connect(ownTransport);
    const id = ownTransport.sessionId ?? "";
    expect(id).not.toBe("");
    await ownTransport.terminateSession();
    expect((await sessionRequest(server.base, id, { id: 1, method: "ping" })).status).toBe(404);
    await own.close();
  });

  it("answers GET (no stream offered) with 405 and Allow, and other methods with 405", async () => {
    for (const headers of [{}, { Accept: "text/event-stream", "Mcp-Session-Id": session }]) {
      const reply = await callMcp(server.base, "GET", headers);
      expect(reply.status).toBe(405);
      expect(reply.headers.get("allow")).toBe("POST, DELETE");
      expect(reply.json?.error?.code).toBe(-32000);
    }
    const put = await callMcp(server.base, "PUT", { "Mcp-Session-Id": session });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toMatch(/POST/);
  });
});

describe("JSON-RPC errors over raw HTTP", () => {
  let session: string;
  beforeAll(async () => {
    session = (await initializeRaw(server.base)).session;
  });

  it("answers a body that is not JSON with 400 and parse error -32700", async () => {
    for (const body of ['{"jsonrpc":"2.0","id":1,', "not json", ""]) {
      const reply = await postMcp(server.base, body, { "Mcp-Session-Id": session });
      expect(reply.status, body).toBe(400);
      expect(reply.json, body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    }
  });

  it("answers a body that is not a JSON-RPC request with 400 and invalid request -32600", async () => {
    for (const body of [
      "[]",
      '"initialize"',
      "42",
      "null",
      '{"id":1,"method":"tools/list"}',
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":7}',
      '{"jsonrpc":"2.0","id":1}',
    ]) {
      const reply = await postMcp(server.base, body, { "Mcp-Session-Id": session });
      expect(reply.status, body).toBe(400);
      expect(reply.json, body).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    }
  });

  it("answers an unknown method with -32601 and the request's id", async () => {
    const reply = await sessionRequest(server.base, session, { id: 77, method: "reviews/delete_all" });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ jsonrpc: "2.0", id: 77, error: { code: -32601 } });
    expect(reply.json?.result).toBeUndefined();
  });

  it("answers an unknown tool with a JSON-RPC error naming it, not a tool result", async () => {
    const reply = await sessionRequest(server.base, session, {
      id: 8,
      method: "tools/call",
      params: { name: "drop_tables", arguments: {} },
    });
    expect(reply.json?.id).toBe(8);
    expect(reply.json?.result).toBeUndefined();
    expect(reply.json?.error?.code).toBe(-32602);
    expect(reply.json?.error?.message).toContain("drop_tables");
  });

  it("answers invalid tool arguments with a tool result (isError) naming the argument", async () => {
    const reply = await sessionRequest(server.base, session, {
      id: 9,
      method: "tools/call",
      params: { name: "search_reviews", arguments: { min_rating: 9 } },
    });
    expect(reply.status).toBe(200);
    expect(reply.json?.error).toBeUndefined();
    expect(reply.json?.result.isError).toBe(true);
    expect(reply.json?.result.content[0].text).toMatch(/min_rating: must be a number from 1 to 5/);
  });
});

describe("security over raw HTTP", () => {
  it("refuses a foreign Origin with 403 before minting a session", async () => {
    for (const origin of [
      "https://evil.example",
      "https://reviews.test.evil.example",
      "http://localhost.evil.example",
      "null",
    ]) {
      const reply = await postMcp(server.base, initializeBody("2025-06-18"), { Origin: origin });
      expect(reply.status, origin).toBe(403);
      expect(reply.json, origin).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
      expect(reply.headers.get("mcp-session-id"), origin).toBeNull();
    }
  });

  it("accepts the site's own origin and loopback origins, and exposes the session header to them", async () => {
    for (const origin of [SITE, "http://localhost:6274", "http://127.0.0.1:3000", "http://[::1]:8080"]) {
      const reply = await postMcp(server.base, initializeBody("2025-06-18"), { Origin: origin });
      expect(reply.status, origin).toBe(200);
      expect(reply.headers.get("access-control-allow-origin"), origin).toBe(origin);
      expect(reply.headers.get("access-control-expose-headers"), origin).toMatch(/\bMcp-Session-Id\b/i);
    }
  });

  it("refuses a foreign Host (DNS rebinding) with 403 and accepts the site's host and loopback", async () => {
    const port = new URL(server.base).port;
    const send = (host: string) =>
      rawHttp(server.base, {
        method: "POST",
        path: "/mcp",
        headers: { ...MCP_HEADERS, Host: host },
        body: initializeBody("2025-06-18"),
      });
    const foreign = await send("evil.example");
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
    expect((await send(`attacker.example:${port}`)).status).toBe(403);
    for (const host of ["reviews.test", `localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await send(host)).status, host).toBe(200);
    }
  });

  it("answers a CORS preflight that allows the MCP headers and exposes Mcp-Session-Id", async () => {
    const response = await fetch(`${server.base}/mcp`, {
      method: "OPTIONS",
      headers: {
        Origin: SITE,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, mcp-session-id, mcp-protocol-version, authorization",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(SITE);
    const allowed = (response.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/);
    for (const header of ["content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"]) {
      expect(allowed).toContain(header);
    }
    const methods = (response.headers.get("access-control-allow-methods") ?? "").split(/\s*,\s*/);
    expect(methods).toEqual(expect.arrayContaining(["POST", "DELETE"]));
    expect(response.headers.get("access-control-expose-headers")).toMatch(/\bMcp-Session-Id\b/i);

    const foreign = await fetch(`${server.base}/mcp`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses a body over the limit with 413", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { padding: "x".repeat(1024 * 1024 + 1) },
    });
    const reply = await postMcp(server.base, huge);
    expect(reply.status).toBe(413);
    // A body just under the limit is read (and then answered on its merits).
    const large = await postMcp(server.base, {
      jsonrpc: "2.0",
      id: 2,
      method: "initialize",
      params: { ...JSON.parse(initializeBody("2025-06-18")).params, padding: "x".repeat(512 * 1024) },
    });
    expect(large.status).toBe(200);
  });

  // BUG: app.ts says the MCP endpoint reads its own bodies "up to 1 MiB, as JSON-RPC errors", but an
  // oversized body fails in express.raw inside mcpRoutes and falls through to the app's generic
  // error handler, which answers {"error":"bad_request","message":"request entity too large"}: a
  // JSON-RPC client gets a body with no jsonrpc/id/error.code (and "bad_request" for a 413).
  it("answers an oversized body with a JSON-RPC error body", async () => {
    const huge = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"p":"${"x".repeat(1024 * 1024 + 1)}"}}`;
    const reply = await postMcp(server.base, huge);
    expect(reply.status).toBe(413);
    expect(reply.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number) } });
  });

  it("ignores an Authorization header (the server is public and read-only)", async () => {
    const auth = { Authorization: "Bearer not-a-real-token" };
    const init = await postMcp(server.base, initializeBody("2025-11-25"), auth);
    expect(init.status).toBe(200);
    expect(init.headers.get("www-authenticate")).toBeNull();
    const session = init.headers.get("mcp-session-id") ?? "";
    const call = await sessionRequest(
      server.base,
      session,
      { id: 2, method: "tools/call", params: { name: "get_business", arguments: {} } },
      "2025-11-25",
      { Authorization: "Basic Zm9vOmJhcg==" },
    );
    expect(call.status).toBe(200);
    expect(call.json?.result.structuredContent.business.name).toBe(document.business.name);
  });

  it("rate-limits per client with 429, Retry-After and a JSON-RPC error", async () => {
    const limited = await listen(
      createApp({
        config: { SITE_URL: SITE, SERVE_STATIC: false, MCP_RATE_LIMIT_PER_MINUTE: 3 },
        store,
        logger,
        sessions: new SessionTokens(SECRET, 3600),
      }),
    );
    try {
      for (let i = 0; i < 3; i++) {
        expect((await postMcp(limited.base, initializeBody("2025-06-18"))).status).toBe(200);
      }
      const refused = await postMcp(limited.base, initializeBody("2025-06-18"));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
      // Only /mcp is limited: the read API still answers.
      expect((await fetch(`${limited.base}/api/reviews/search?limit=1`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

// ---------------------------------------------------------------------------
// Property: the tool and the HTTP search endpoint agree
// ---------------------------------------------------------------------------

describe("search_reviews and GET /api/reviews/search agree", () => {
  const technicians = () => [
    ...document.business.technicians.flatMap((t) => [t.name, t.id, t.name.split(" ")[0] as string]),
    "DANA w.",
    "nobody",
  ];
  const services = () => [...document.business.services.map((s) => s.id), "DRAIN-CLEANING", "no-such-service"];
  const day = fc
    .date({ min: new Date("2022-10-01T00:00:00Z"), max: new Date("2027-03-01T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

  const toQuery = (params: Record<string, unknown>) =>
    new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

  async function viaHttp(params: Record<string, unknown>) {
    const response = await fetch(`${server.base}/api/reviews/search?${toQuery(params)}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function viaTool(params: Record<string, unknown>) {
    return (await client.callTool({ name: "search_reviews", arguments: params })) as CallToolResult;
  }

  /** Compares one parameter set; returns "rejected", the next cursor, or the number of matches. */
  async function compare(params: Record<string, unknown>): Promise<"rejected" | string | number> {
    const [http, tool] = await Promise.all([viaHttp(params), viaTool(params)]);
    const label = JSON.stringify(params);
    if (http.status !== 200) {
      expect(http.status, label).toBe(400);
      expect(tool.isError, label).toBe(true);
      const text = tool.content[0]?.type === "text" ? tool.content[0].text : "";
      for (const issue of http.body.issues as { path: string }[]) expect(text, label).toContain(`${issue.path}:`);
      return "rejected";
    }
    expect(tool.isError, label).toBeFalsy();
    const structured = tool.structuredContent as Record<string, unknown>;
    expect(structured.total, label).toBe(http.body.total);
    expect(structured.count, label).toBe(http.body.count);
    expect(structured.next_cursor, label).toBe(http.body.next_cursor);
    expect(idsOf(structured.reviews as Review[]), label).toEqual(idsOf(http.body.reviews as Review[]));
    return (structured.next_cursor as string | null) ?? (structured.total as number);
  }

  it("returns the same ids, totals and cursors for the same random parameters (50 runs)", async () => {
    // Each filter is left out most of the time, so that many parameter sets still match reviews.
    const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
    const params = fc
      .record({
        rating: sometimes(
          fc.oneof(
            { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 4 },
            { arbitrary: fc.constantFrom(0, 6), weight: 1 },
          ),
        ),
        min_rating: sometimes(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.double({ min: 1, max: 5, noNaN: true }))),
        since: sometimes(day),
        until: sometimes(day),
        query: sometimes(
          fc.oneof(
            fc.constantFrom("water", "heater", "DRAIN", "Dana", "cafe", "café", "leak", "a b", "100%", "x&y=z"),
            fc.string({ minLength: 1, maxLength: 8, unit: "grapheme" }),
          ),
        ),
        mentions_technician: sometimes(fc.constantFrom(...technicians())),
        mentions_service: sometimes(fc.constantFrom(...services())),
        limit: sometimes(fc.integer({ min: 1, max: 100 })),
        sort: sometimes(fc.constantFrom("newest", "oldest", "highest", "lowest")),
      })
      .map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)));
    const seen = { matched: 0, paged: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const outcome = await compare(p);
        if (outcome === "rejected") seen.rejected++;
        else if (typeof outcome === "number") seen.matched += outcome > 0 ? 1 : 0;
        else {
          seen.matched++;
          seen.paged++;
          await compare({ ...p, cursor: outcome });
        }
      }),
      {
        numRuns: 50,
        // Always among the runs: a plain paged listing, a technician by first name, an invalid rating.
        examples: [[{ limit: 5 }], [{ mentions_technician: "dana", sort: "highest", limit: 3 }], [{ rating: 0 }]],
      },
    );
    // The generator must exercise real matches, paging and rejections, not only empty results.
    expect(seen.matched, JSON.stringify(seen)).toBeGreaterThanOrEqual(3);
    expect(seen.paged, JSON.stringify(seen)).toBeGreaterThanOrEqual(2);
    expect(seen.rejected, JSON.stringify(seen)).toBeGreaterThanOrEqual(1);
  });
});
