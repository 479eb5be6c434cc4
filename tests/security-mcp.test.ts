/**
 * Issue 20's MCP findings, each attack scaled down to test size, against the in-process server on a
 * loopback port: the tool-result cache (1), bounded error answers (3), deep nesting (5), exact
 * routing of /mcp for chunked bodies (8) and invalid request params (10).
 */

import { MAX_CACHED_ARGUMENTS, toolResults } from "@riverbend/server/mcp/server.ts";
import { describe, expect, it } from "vitest";
import { sendRaw } from "./support/http.ts";
import { client, server, setupInProcessMcp, store } from "./support/mcp-inprocess.ts";
import { MODERN_META, postModern } from "./support/mcp-modern.ts";
import { initializeRaw, type JsonRpcBody, MCP_HEADERS, postMcp, sessionRequest } from "./support/mcp-rpc.ts";

setupInProcessMcp();

/** JSON text of a value nested `depth` objects deep (JSON.stringify itself would overflow the stack). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** A tools/call of the current revision whose arguments are `args` (JSON text), sent as is. */
async function callWithRawArguments(name: string, args: string) {
  const params = `{"name":${JSON.stringify(name)},"arguments":${args},"_meta":${JSON.stringify(MODERN_META)}}`;
  const response = await fetch(`${server.base}/mcp`, {
    method: "POST",
    headers: { ...MCP_HEADERS, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name },
    body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${params}}`,
  });
  return { status: response.status, json: (await response.json()) as JsonRpcBody };
}

describe("the tool-result cache (finding 1)", () => {
  it("keeps no result of invalid arguments, however many distinct ones a client sends", async () => {
    const results = toolResults(store.current.index);
    const before = { size: results.size, bytes: results.calculatedSize };
    // Scaled down: 40 calls with 20 KB of arguments each (the attack: 1,000 calls with 1 MB each).
    for (let call = 0; call < 40; call++) {
      const result = await client.callTool({
        name: "get_insights",
        arguments: { technician: `${call}-${"x".repeat(20_000)}` },
      });
      expect(result.isError).toBe(true);
    }
    expect(results.size).toBe(before.size);
    expect(results.calculatedSize).toBe(before.bytes);
  });

  it("keeps valid results keyed by their bounded arguments, counting the keys in its byte bound", async () => {
    const results = toolResults(store.current.index);
    const args = { query: "leak", limit: 3 };
    await client.callTool({ name: "search_reviews", arguments: args });
    const key = [...results.keys()].find((k) => k.startsWith("search_reviews\u0000") && k.includes('"leak"')) ?? "";
    expect(key.length).toBeGreaterThan(0);
    expect(key.length).toBeLessThanOrEqual(MAX_CACHED_ARGUMENTS);
    const kept = results.get(key);
    const text = kept?.content[0]?.type === "text" ? kept.content[0].text : "";
    expect(kept && results.sizeCalculation?.(kept, key)).toBe(key.length + text.length + 64);
    expect(results.maxSize).toBeGreaterThan(0);
  });
});

describe("error answers stay small (finding 3)", () => {
  it("answers 4,000 unknown arguments with the first problems and a count of the rest", async () => {
    const args = Object.fromEntries(Array.from({ length: 4_000 }, (_, i) => [`p${i}`, 1]));
    const result = await client.callTool({ name: "search_reviews", arguments: args });
    expect(result.isError).toBe(true);
    const text = JSON.stringify(result.content);
    expect(text.length).toBeLessThan(4_000);
    expect(text).toMatch(/and 39\d\d more/);
  });
});

describe("deep nesting (finding 5)", () => {
  it("answers arguments nested 5,000 deep with -32602, for a known and an unknown tool, and keeps serving", async () => {
    for (const name of ["get_business", "no_such_tool"]) {
      const reply = await callWithRawArguments(name, nested(5_000));
      expect(reply.status, name).toBe(400);
      expect(reply.json.error?.code, name).toBe(-32602);
      expect(reply.json.error?.message, name).toMatch(/nested more than \d+ levels/);
      expect(reply.json.id, name).toBe(1);
    }
    const { session } = await initializeRaw(server.base);
    const deep = await postMcp(
      server.base,
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_business","arguments":${nested(5_000)}}}`,
      { "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" },
    );
    expect(deep.status).toBe(400);
    expect(deep.json?.error?.code).toBe(-32602);
    expect((await client.callTool({ name: "get_business", arguments: {} })).isError).toBeFalsy();
  });

  it("still answers ordinary requests, whose nesting is shallow", async () => {
    const reply = await postModern(server.base, "tools/call", { name: "get_business", arguments: {} });
    expect(reply.status).toBe(200);
    expect(reply.json?.result?.isError).toBeFalsy();
  });
});

describe("routing and body handling agree (finding 8)", () => {
  const chunked = { ...MCP_HEADERS, "Transfer-Encoding": "chunked", "Mcp-Protocol-Version": "2026-07-28" };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "server/discover",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });

  it("serves a chunked request at /mcp", async () => {
    const reply = await sendRaw(server.base, "POST", "/mcp", { ...chunked, "Mcp-Method": "server/discover" }, body);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body.toString()).result).toBeDefined();
  });

  it("answers case and trailing-slash variants of /mcp as unknown paths, not as MCP with a lost body", async () => {
    for (const path of ["/MCP", "/Mcp", "/mcp/"]) {
      const reply = await sendRaw(server.base, "POST", path, { ...chunked, "Mcp-Method": "server/discover" }, body);
      expect(reply.status, path).toBe(404);
      expect(JSON.parse(reply.body.toString()), path).toMatchObject({ error: "not_found" });
    }
  });
});

describe("invalid request params (finding 10)", () => {
  const CASES: [string, Record<string, unknown>][] = [
    ["resources/read", { uri: 5 }],
    ["prompts/get", { name: "answer_customer_question", arguments: { question: 5 } }],
    ["completion/complete", { ref: { type: "ref/prompt", name: 5 }, argument: {} }],
    ["tools/list", { cursor: 5 }],
    ["tools/call", { name: 5 }],
    ["tools/call", { name: "get_business", arguments: "x" }],
  ];
  const expectClear = (label: string, error: { code: number; message: string } | undefined) => {
    expect(error?.code, label).toBe(-32602);
    expect(error?.message, label).toMatch(/^Invalid params for [\w/]+: params\./);
    expect(error?.message, label).not.toMatch(/\n|"code":|"expected":|\[\s*\{/);
    expect((error?.message ?? "").length, label).toBeLessThan(700);
  };

  it("answers each with -32602 and a one-line reason, in the current revision", async () => {
    for (const [method, params] of CASES) {
      const reply = await postModern(server.base, method, params);
      expectClear(`${method} ${JSON.stringify(params)}`, reply.json?.error);
    }
  });

  it("answers each with -32602 and a one-line reason, in a 2025 session (logging/setLevel too)", async () => {
    const { session } = await initializeRaw(server.base);
    for (const [method, params] of [...CASES, ["logging/setLevel", { level: "bogus" }] as const]) {
      const reply = await sessionRequest(server.base, session, { id: 3, method, params });
      expectClear(`${method} ${JSON.stringify(params)}`, reply.json?.error);
      expect(reply.json?.id).toBe(3);
    }
  });

  it("lets valid requests through unchanged", async () => {
    const reply = await postMcp(server.base, { jsonrpc: "2.0", id: 1, method: "ping" });
    expect(reply.json?.error?.code).not.toBe(-32602);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
