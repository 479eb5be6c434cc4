/**
 * The MCP server's security checks at POST /mcp, in process, over raw HTTP: Origin and Host
 * (DNS rebinding), CORS preflight, the body size limit, Authorization (ignored: the server is
 * public and read-only) and the per-client rate limit.
 */

import { createApp } from "@riverbend/server/app.ts";
import { SessionTokens } from "@riverbend/server/mcp/session-tokens.ts";
import { describe, expect, it } from "vitest";
import { listen } from "./support/http.ts";
import { document, logger, SECRET, SITE, server, setupInProcessMcp, store } from "./support/mcp-inprocess.ts";
import { initializeBody, MCP_HEADERS, postMcp, rawHttp, sessionRequest } from "./support/mcp-rpc.ts";

setupInProcessMcp();

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

  // A regression test: an oversized body once fell through to the app's generic error handler,
  // whose {"error":"bad_request"} body a JSON-RPC client cannot read.
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
