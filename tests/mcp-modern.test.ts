/**
 * The current MCP revision (2026-07-28) at POST /mcp, in process, through the official v2 client
 * pinned to it: every tool, resource, prompt and completion, with the answers the 2025 session and
 * the published documents give, plus the cache hints and tool order the revision asks for.
 */
import type { Client } from "@modelcontextprotocol/client";
import { TOOL_LIST } from "@riverbend/shared/mcp-catalog/listing.ts";
import { MCP_CACHE_TTL_MS, MCP_CURRENT_REVISION } from "@riverbend/shared/mcp-catalog/protocol.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DOCUMENTS,
  document,
  client as legacyClient,
  reviews,
  server,
  setupInProcessMcp,
  TEMPLATE,
  TOOL_NAMES,
} from "./support/mcp-inprocess.ts";
import { pinnedClient, postModern } from "./support/mcp-modern.ts";

setupInProcessMcp();

let client: Client;
beforeAll(async () => {
  client = await pinnedClient(server.base);
});
afterAll(() => client?.close());

/** A tool's structured result through the pinned client (no error expected). */
async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
  return result.structuredContent as Record<string, unknown>;
}

describe("a 2026-07-28 client pinned to the revision", () => {
  it("connects statelessly through server/discover, on the current revision", () => {
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe(MCP_CURRENT_REVISION);
    expect(client.getDiscoverResult()?.supportedVersions).toContain(MCP_CURRENT_REVISION);
    expect(client.getServerVersion()?.name).toBe("riverbend-reviews");
    expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: false, subscribe: true });
  });

  it("lists the five tools in catalog order, as the server card publishes them, the same way every time", async () => {
    const first = (await client.listTools(undefined, { cacheMode: "bypass" })).tools;
    expect(first.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(first).toEqual(TOOL_LIST);
    const again = (await client.listTools(undefined, { cacheMode: "bypass" })).tools;
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
  });

  it("calls every tool with the answers a 2025 session gets", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["get_business", {}],
      ["search_reviews", { mentions_service: "drain-cleaning", min_rating: 4, limit: 5 }],
      ["get_review", { id: reviews[3]?.id }],
      ["get_reviews_since", { date: "2026-01-01", limit: 3 }],
      ["get_insights", { section: "aspects", aspect: "price" }],
    ];
    expect(calls.map(([name]) => name)).toEqual(TOOL_NAMES);
    for (const [name, args] of calls) {
      const legacy = await legacyClient.callTool({ name, arguments: args });
      expect(await call(name, args), name).toEqual(legacy.structuredContent);
    }
    expect(await call("get_business")).toEqual({
      business: document.business,
      aggregate_rating: document.aggregate_rating,
    });
  });

  it("answers search_reviews like GET /api/reviews/search for the same query", async () => {
    const query = { query: "water heater", sort: "oldest", limit: 4 };
    const http = await (await fetch(`${server.base}/api/reviews/search?query=water+heater&sort=oldest&limit=4`)).json();
    expect(await call("search_reviews", query)).toEqual(http);
  });

  it("answers invalid arguments with an isError result naming the argument, an unknown tool with a JSON-RPC error", async () => {
    const invalid = await client.callTool({ name: "search_reviews", arguments: { min_ratting: 3 } });
    expect(invalid.isError).toBe(true);
    expect(JSON.stringify(invalid.content)).toMatch(/min_ratting: is not a parameter/);
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/no_such_tool/);
  });

  it("lists and reads the four published documents and reads reviews through the template", async () => {
    const listed = (await client.listResources()).resources;
    expect(listed.map(({ uri, mimeType }) => ({ uri, mimeType }))).toEqual(
      DOCUMENTS.map(({ uri, mimeType }) => ({ uri, mimeType })),
    );
    for (const doc of DOCUMENTS) {
      const served = await (await fetch(`${server.base}${doc.path}`)).text();
      const [content] = (await client.readResource({ uri: doc.uri })).contents;
      expect(content && "text" in content ? content.text : undefined, doc.path).toBe(served);
    }
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([TEMPLATE]);
    const review = reviews[7] as Review;
    const [content] = (await client.readResource({ uri: `reviews://review/${review.id}` })).contents;
    expect(JSON.parse(content && "text" in content ? content.text : "null")).toEqual(review);
    await expect(client.readResource({ uri: "reviews://review/1999-01-01-nobody" })).rejects.toThrow(/not found/i);
  });

  it("gets both prompts and completes their arguments and the template's id", async () => {
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      "summarize_reviews",
      "answer_customer_question",
    ]);
    const summary = await client.getPrompt({ name: "summarize_reviews", arguments: { service: "drain-cleaning" } });
    const legacy = await legacyClient.getPrompt({
      name: "summarize_reviews",
      arguments: { service: "drain-cleaning" },
    });
    expect(summary.messages).toEqual(legacy.messages);
    const answer = await client.getPrompt({
      name: "answer_customer_question",
      arguments: { question: "Do they fix water heaters?" },
    });
    expect(JSON.stringify(answer.messages)).toContain("water heaters");

    const technicians = await client.complete({
      ref: { type: "ref/prompt", name: "summarize_reviews" },
      argument: { name: "technician", value: "ch" },
    });
    const expected = document.business.technicians.map((t) => t.name).filter((n) => n.toLowerCase().startsWith("ch"));
    expect(technicians.completion.values).toEqual(expected);
    const prefix = (reviews[0] as Review).id.slice(0, 7);
    const ids = await client.complete({
      ref: { type: "ref/resource", uri: TEMPLATE },
      argument: { name: "id", value: prefix },
    });
    expect(ids.completion.values.length).toBeGreaterThan(0);
    for (const id of ids.completion.values) expect(id.startsWith(prefix)).toBe(true);
  });
});

describe("2026-07-28 over raw HTTP", () => {
  it("answers server/discover with the revision, capabilities and server identity", async () => {
    const reply = await postModern(server.base, "server/discover");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("mcp-session-id")).toBeNull();
    expect(reply.json?.result).toMatchObject({
      supportedVersions: [MCP_CURRENT_REVISION],
      capabilities: { tools: { listChanged: false }, resources: { subscribe: true } },
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "riverbend-reviews" } },
    });
  });

  it("marks every list and read public and cacheable, and every result complete", async () => {
    const cacheable: [string, Record<string, unknown>][] = [
      ["tools/list", {}],
      ["prompts/list", {}],
      ["resources/list", {}],
      ["resources/templates/list", {}],
      ["resources/read", { uri: DOCUMENTS[0]?.uri }],
      ["resources/read", { uri: `reviews://review/${reviews[0]?.id}` }],
    ];
    for (const [method, params] of cacheable) {
      const reply = await postModern(server.base, method, params);
      expect(reply.status, method).toBe(200);
      expect(reply.json?.result, method).toMatchObject({
        ttlMs: MCP_CACHE_TTL_MS,
        cacheScope: "public",
        resultType: "complete",
      });
    }
    const call = await postModern(server.base, "tools/call", { name: "get_business", arguments: {} });
    expect(call.json?.result.resultType).toBe("complete");
  });

  it("refuses headers that disagree with the body: 400 HeaderMismatch (-32020)", async () => {
    const params = { name: "get_review", arguments: { id: reviews[0]?.id } };
    for (const headers of [{ "Mcp-Name": "search_reviews" }, { "Mcp-Method": "tools/list" }]) {
      const reply = await postModern(server.base, "tools/call", params, headers, 7);
      expect(reply.status, JSON.stringify(headers)).toBe(400);
      expect(reply.json?.error?.code).toBe(-32020);
      expect(reply.json?.id).toBe(7);
    }
  });

  it("refuses a revision it does not serve: 400 UnsupportedProtocolVersion (-32022) listing the supported one", async () => {
    const response = await fetch(`${server.base}/mcp`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": "2099-01-01",
        "Mcp-Method": "tools/list",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2099-01-01",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe(-32022);
    expect(body.error.data).toEqual({ supported: [MCP_CURRENT_REVISION], requested: "2099-01-01" });
  });

  it("answers a method the revision removed (ping) with 404 and -32601", async () => {
    const reply = await postModern(server.base, "ping");
    expect(reply.json?.error?.code).toBe(-32601);
  });
});
