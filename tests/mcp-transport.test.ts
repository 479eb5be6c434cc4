/**
 * The MCP server's streamable-HTTP transport at POST /mcp, in process, over raw HTTP: the documented
 * curl initialize, signed sessions (missing, forged, expired, terminated) and the JSON-RPC errors
 * for bodies and methods the server cannot serve.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createApp } from "@riverbend/server/app.ts";
import { SessionTokens } from "@riverbend/server/mcp/session-tokens.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { listen } from "./support/http.ts";
import {
  logger,
  reviews,
  SECRET,
  SITE,
  server,
  setupInProcessMcp,
  store,
  TOOL_NAMES,
} from "./support/mcp-inprocess.ts";
import { callMcp, initializeBody, initializeRaw, postMcp, sessionRequest } from "./support/mcp-rpc.ts";

setupInProcessMcp();

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

  // A regression test: the SDK's McpServer merges `listChanged: true` into a declared tools
  // capability, which this server (JSON answers only, no GET stream) could never honour.
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
