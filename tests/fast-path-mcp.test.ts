/**
 * The MCP tools/call fast path (sidecar/src/fast-path/mcp-call.ts) against the Express app it sits
 * in front of: the same requests to a server with and without it must give the same status,
 * headers (but Date, a generated request id and the seconds until the rate-limit window resets,
 * in RateLimit and Retry-After)
 * and bytes; the fast path must actually answer the tool calls, log each with its id, count each
 * under the /mcp route, and share the rate limiter's accounting with Express.
 */

import { gzipSync } from "node:zlib";
import { type Logger, pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BundleStore } from "../sidecar/src/bundle/bundle-store.ts";
import { SessionTokens } from "../sidecar/src/mcp/session-tokens.ts";
import { createSidecarServer } from "../sidecar/src/server.ts";
import { listen, type RawResponse, sendRaw } from "./support/http.ts";
import { initializeBody, MCP_HEADERS } from "./support/mcp-rpc.ts";

const SITE = "https://reviews.test";
const SECRET = "fast-path-mcp-test-secret-0123456789";
const VERSION = "2025-11-25";
const silent = pino({ level: "silent" });

/** A server pair over one build: Express alone, and the fast paths in front of it; own tokens each, one secret. */
async function pair(store: BundleStore, perMinute: number, logger: Logger = silent) {
  const config = { SITE_URL: SITE, SERVE_STATIC: false, MCP_RATE_LIMIT_PER_MINUTE: perMinute };
  const express = await listen(
    createSidecarServer({
      config,
      store,
      logger: silent,
      sessions: new SessionTokens(SECRET, 3600),
      fastPath: false,
    }).server,
  );
  const built = createSidecarServer({ config, store, logger, sessions: new SessionTokens(SECRET, 3600) });
  const fast = await listen(built.server);
  // The first /mcp request goes through Express on both and loads the MCP routes.
  for (const { base } of [express, fast]) {
    const init = await sendRaw(base, "POST", "/mcp", { ...MCP_HEADERS }, initializeBody(VERSION));
    expect(init.status).toBe(200);
  }
  return { express, fast, metrics: built.metrics };
}

let store: BundleStore;
let lines: string[];
let servers: Awaited<ReturnType<typeof pair>>;

beforeAll(async () => {
  store = new BundleStore(inject("sampleDist"), silent);
  lines = [];
  const logger: Logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
  servers = await pair(store, 100_000, logger);
});
afterAll(async () => {
  await servers.express.close();
  await servers.fast.close();
});

/** Headers as compared: the clock's Date, a generated id and the seconds to the window's reset differ by nature. */
function comparable(raw: RawResponse, idGiven: boolean) {
  const { date: _date, ...headers } = raw.headers;
  if (!idGiven) {
    expect(headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    delete headers["x-request-id"];
  }
  if (typeof headers.ratelimit === "string") {
    const reset = Number(/reset=(\d+)$/.exec(headers.ratelimit)?.[1]);
    expect(reset).toBeGreaterThanOrEqual(0);
    expect(reset).toBeLessThanOrEqual(60);
    headers.ratelimit = headers.ratelimit.replace(/reset=\d+$/, "reset=…");
  }
  // Each server's window opened at its own first request, so a 429's seconds to wait may differ by one.
  if (typeof headers["retry-after"] === "string") {
    expect(Number(headers["retry-after"])).toBeGreaterThanOrEqual(0);
    expect(Number(headers["retry-after"])).toBeLessThanOrEqual(60);
    headers["retry-after"] = "…";
  }
  return { status: raw.status, headers, body: raw.body.toString("latin1") };
}

type Case = [label: string, path: string, headers: Record<string, string>, body: string | Buffer, method?: string];

const call = (name: string, args: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

function cases(session: string, other: string): Case[] {
  const h = { ...MCP_HEADERS, "Mcp-Session-Id": session, "MCP-Protocol-Version": VERSION };
  const search = call("search_reviews", { rating: 5, limit: 2 });
  return [
    ["valid call", "/mcp", h, search],
    ["valid call, same again (cached)", "/mcp", h, search],
    ["string id", "/mcp", h, call("search_reviews", { min_rating: 4, query: "water heater", limit: 3 }, "a-1")],
    [
      "no arguments",
      "/mcp",
      h,
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_business" } }),
    ],
    ["get_review of an unknown id", "/mcp", h, call("get_review", { id: "nope" }, 3)],
    ["get_insights", "/mcp", h, call("get_insights", { section: "summary" }, 4)],
    ["invalid arguments: isError result", "/mcp", h, call("search_reviews", { rating: 9, extra: true }, 5)],
    ["unknown tool: JSON-RPC error", "/mcp", h, call("no_such_tool", {}, 6)],
    ["params without a name", "/mcp", h, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: {} })],
    ["id null", "/mcp", h, call("search_reviews", { limit: 1 }, null)],
    ["unknown session: 404", "/mcp", { ...h, "Mcp-Session-Id": other }, search],
    ["malformed session: 404", "/mcp", { ...h, "Mcp-Session-Id": "1.2.3" }, search],
    ["missing session: 400", "/mcp", { ...MCP_HEADERS, "MCP-Protocol-Version": VERSION }, search],
    ["wrong Host: 403", "/mcp", { ...h, Host: "evil.example" }, search],
    ["foreign Origin: 403", "/mcp", { ...h, Origin: "https://evil.example" }, search],
    ["allowed Origin", "/mcp", { ...h, Origin: SITE }, search],
    ["public Host", "/mcp", { ...h, Host: "reviews.test" }, search],
    ["unsupported protocol version", "/mcp", { ...h, "MCP-Protocol-Version": "1999-01-01" }, search],
    ["no protocol version header", "/mcp", { ...MCP_HEADERS, "Mcp-Session-Id": session }, search],
    ["Accept without event-stream", "/mcp", { ...h, Accept: "application/json" }, search],
    ["Content-Type text/plain", "/mcp", { ...h, "Content-Type": "text/plain" }, search],
    ["Content-Type with charset", "/mcp", { ...h, "Content-Type": "application/json; charset=utf-8" }, search],
    ["request id given", "/mcp", { ...h, "X-Request-Id": "given-mcp-1" }, search],
    ["gzip accepted, small answer", "/mcp", { ...h, "Accept-Encoding": "gzip" }, call("search_reviews", { limit: 0 })],
    ["gzip accepted, large answer", "/mcp", { ...h, "Accept-Encoding": "gzip" }, call("search_reviews", { limit: 5 })],
    [
      "identity accepted, large answer",
      "/mcp",
      { ...h, "Accept-Encoding": "identity" },
      call("search_reviews", { limit: 5 }),
    ],
    ["gzip-encoded body", "/mcp", { ...h, "Content-Encoding": "gzip" }, gzipSync(search)],
    ["chunked body", "/mcp", { ...h, "Transfer-Encoding": "chunked" }, search],
    ["body over 64 KiB, within 1 MiB", "/mcp", h, call("search_reviews", { query: "x".repeat(70_000) }, 8)],
    ["body over 1 MiB: 413", "/mcp", h, call("search_reviews", { query: "x".repeat(1_100_000) }, 9)],
    ["malformed JSON", "/mcp", h, '{"jsonrpc":"2.0","id":1,'],
    ["not JSON-RPC 2.0", "/mcp", h, JSON.stringify({ jsonrpc: "1.0", id: 1, method: "tools/call" })],
    ["empty body", "/mcp", h, ""],
    ["batch", "/mcp", h, `[${search},${call("get_business", {}, 10)}]`],
    ["notification", "/mcp", h, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })],
    ["tools/list", "/mcp", h, JSON.stringify({ jsonrpc: "2.0", id: 11, method: "tools/list" })],
    ["ping", "/mcp", h, JSON.stringify({ jsonrpc: "2.0", id: 12, method: "ping" })],
    ["unknown method", "/mcp", h, JSON.stringify({ jsonrpc: "2.0", id: 13, method: "no/such" })],
    ["a query string", "/mcp?x=1", h, search],
    ["upper-case path", "/MCP", h, search],
    ["GET", "/mcp", h, "", "GET"],
    ["DELETE the session", "/mcp", h, "", "DELETE"],
    ["call after DELETE: 404", "/mcp", h, search],
  ];
}

describe("the MCP tools/call fast path", () => {
  it("answers every request exactly as the Express app alone does", async () => {
    const session = new SessionTokens(SECRET, 3600).issue();
    const other = new SessionTokens("another-secret-another-secret-another", 3600).issue();
    for (const [label, path, headers, body, method = "POST"] of cases(session, other)) {
      const idGiven = "X-Request-Id" in headers;
      const viaExpress = comparable(await sendRaw(servers.express.base, method, path, headers, body), idGiven);
      const viaFast = comparable(await sendRaw(servers.fast.base, method, path, headers, body), idGiven);
      expect(viaFast, label).toEqual(viaExpress);
    }
  });

  it("answers the tool calls itself, logging each with its request id and counting it under /mcp", async () => {
    const session = new SessionTokens(SECRET, 3600).issue();
    const h = { ...MCP_HEADERS, "Mcp-Session-Id": session, "MCP-Protocol-Version": VERSION };
    lines.length = 0;
    const series = (status: number) => `http_requests_total{method="POST",route="/mcp",status="${status}"}`;
    const count = async (status: number) => {
      const text = await servers.metrics.registry.getSingleMetricAsString("http_requests_total");
      const line = text.split("\n").find((l) => l.startsWith(`${series(status)} `));
      return line ? Number(line.slice(series(status).length + 1)) : 0;
    };
    const before = await count(200);
    const asked = [
      ["fast-mcp-1", call("search_reviews", { rating: 4 })],
      ["fast-mcp-2", call("search_reviews", { rating: 9 })],
      ["fast-mcp-3", call("get_business", {})],
    ] as const;
    for (const [id, body] of asked) {
      const answer = await sendRaw(servers.fast.base, "POST", "/mcp", { ...h, "X-Request-Id": id }, body);
      expect(answer.status).toBe(200);
    }
    // A fall-through after the body was read (an unknown tool): Express logs it with headers.
    await sendRaw(servers.fast.base, "POST", "/mcp", { ...h, "X-Request-Id": "express-mcp-1" }, call("nope", {}));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const entries = lines.map((line) => JSON.parse(line) as { req: { id: string; headers?: unknown } });
    for (const [id] of asked) {
      const entry = entries.find((e) => e.req.id === id);
      expect(entry, id).toBeDefined();
      // pino-http logs the request headers; the fast path's lighter line does not.
      expect(entry?.req.headers, id).toBeUndefined();
    }
    expect(entries.find((e) => e.req.id === "express-mcp-1")?.req.headers).toBeDefined();
    expect((await count(200)) - before).toBe(4);
  });

  it("shares the rate limiter's accounting with Express: the same 429s, at the same request", async () => {
    const limited = await pair(store, 4);
    try {
      const session = new SessionTokens(SECRET, 3600).issue();
      const h = { ...MCP_HEADERS, "Mcp-Session-Id": session, "MCP-Protocol-Version": VERSION };
      // initialize counted once already; a fall-through (unknown tool), two fast calls, then the limit.
      const bodies = [call("nope", {}), call("search_reviews", { limit: 1 }), call("get_business", {})];
      bodies.push(call("search_reviews", { limit: 1 }), call("nope", {}), call("search_reviews", { limit: 2 }));
      const statuses: number[] = [];
      for (const body of bodies) {
        const viaExpress = comparable(await sendRaw(limited.express.base, "POST", "/mcp", h, body), false);
        const viaFast = comparable(await sendRaw(limited.fast.base, "POST", "/mcp", h, body), false);
        expect(viaFast, body).toEqual(viaExpress);
        statuses.push(viaFast.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
      const metrics = await limited.metrics.registry.getSingleMetricAsString("http_requests_total");
      expect(metrics).toContain('http_requests_total{method="POST",route="/mcp",status="429"} 3');
    } finally {
      await limited.express.close();
      await limited.fast.close();
    }
  });
});
