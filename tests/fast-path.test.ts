/**
 * The read API's fast path (sidecar/src/fast-path/) against the Express app it sits in front of:
 * the same requests to a server with and without it must give the same status, headers (but Date
 * and a generated request id) and bytes; the fast path must actually answer the hot reads, log
 * each with its id, and count each in /metrics.
 */

import { type Logger, pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BundleStore } from "../sidecar/src/bundle/bundle-store.ts";
import { createSidecarServer } from "../sidecar/src/server.ts";
import { listen, type RawResponse, sendRaw } from "./support/http.ts";

const SITE = "https://reviews.test";
const silent = pino({ level: "silent" });

let store: BundleStore;
let lines: string[];
let express: Awaited<ReturnType<typeof listen>>;
let fast: Awaited<ReturnType<typeof listen>>;
let fastMetrics: ReturnType<typeof createSidecarServer>["metrics"];

beforeAll(async () => {
  store = new BundleStore(inject("sampleDist"), silent);
  lines = [];
  const logger: Logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
  const config = { SITE_URL: SITE, SERVE_STATIC: false };
  express = await listen(createSidecarServer({ config, store, logger: silent, fastPath: false }).server);
  const built = createSidecarServer({ config, store, logger });
  fastMetrics = built.metrics;
  fast = await listen(built.server);
});
afterAll(async () => {
  await express.close();
  await fast.close();
});

/** Headers as compared: the clock's Date and a generated id differ by nature. */
function comparable(raw: RawResponse, idGiven: boolean) {
  const { date: _date, ...headers } = raw.headers;
  if (!idGiven) {
    expect(headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    delete headers["x-request-id"];
  }
  return { status: raw.status, headers, body: raw.body.toString("latin1") };
}

type Case = [method: string, path: string, headers?: Record<string, string>, body?: string];

function cases(etag: string, lastModified: string, sinceEtag: string): Case[] {
  const search = "/api/reviews/search";
  return [
    ["GET", search],
    ["GET", `${search}?rating=5&limit=2`],
    ["GET", `${search}?min_rating=4&mentions_technician=luis&query=water%20heater&limit=2`],
    ["GET", `${search}?query=caf%C3%A9&sort=oldest`],
    ["GET", `${search}?mentions_service=DRAIN-CLEANING&sort=lowest&limit=3`],
    ["GET", `${search}?limit=0`],
    ["GET", `${search}?min_ratting=4&limit=500`],
    ["GET", `${search}?rating=5&rating=4`],
    ["GET", `${search}?rating=`],
    ["GET", `${search}?since=2025-02-30&until=2024-01-01`],
    ["GET", `${search}?cursor=not-a-cursor`],
    ["GET", `${search}?%zz=1`],
    ["GET", `${search}?`],
    ["GET", `${search}/`],
    ["GET", "/API/reviews/search?rating=5"],
    ["HEAD", `${search}?rating=5`],
    ["HEAD", `${search}?limit=0`],
    ["GET", `${search}?rating=5`, { "X-Request-Id": "given-id-1" }],
    ["GET", search, { "If-None-Match": etag }],
    ["GET", search, { "If-None-Match": `"other", W/${etag}` }],
    ["GET", search, { "If-None-Match": "*" }],
    ["GET", search, { "If-None-Match": '"other"' }],
    ["GET", search, { "If-Modified-Since": lastModified }],
    ["GET", search, { "If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT" }],
    ["GET", search, { "If-None-Match": '"other"', "If-Modified-Since": lastModified }],
    ["HEAD", search, { "If-None-Match": etag }],
    ["GET", search, { "Cache-Control": "no-cache", "If-None-Match": etag }],
    ["GET", search, { Origin: "https://elsewhere.example" }],
    ["GET", search, { "Accept-Encoding": "gzip, br" }],
    ["GET", `${search}?limit=1`, { "Accept-Encoding": "gzip" }],
    ["GET", search, { "Accept-Encoding": "gzip", "If-None-Match": etag }],
    ["GET", `${search}?limit=0`, { "Accept-Encoding": "gzip" }],
    ["GET", search, { "Accept-Encoding": "identity" }],
    ["HEAD", search, { "Accept-Encoding": "gzip" }],
    ["GET", search, { "Content-Type": "application/json" }, "x".repeat(70_000)],
    ["GET", search, { "Content-Type": "text/plain" }, "small"],
    ["POST", search],
    ["DELETE", `${search}?rating=5`],
    [
      "OPTIONS",
      search,
      {
        Origin: "https://elsewhere.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "If-None-Match",
      },
    ],
    ["GET", "/api/reviews/since/2024-01-01"],
    ["GET", "/api/reviews/since/2099-01-01"],
    ["GET", "/api/reviews/since/2025-02-30"],
    ["GET", "/api/reviews/since/yesterday"],
    ["GET", "/api/reviews/since/2024-01-01?unused=1"],
    ["GET", "/api/reviews/since/2024-01-01/"],
    ["GET", "/api/reviews/since/%32024-01-01"],
    ["GET", "/api/reviews/since/%E0%A4%A"],
    ["GET", "/api/reviews/since/"],
    ["HEAD", "/api/reviews/since/2024-01-01"],
    ["GET", "/api/reviews/since/2024-01-01", { "If-None-Match": sinceEtag }],
    ["HEAD", "/api/reviews/since/2024-01-01", { "If-None-Match": sinceEtag }],
    ["GET", "/api/reviews/since/2024-01-01", { "If-Modified-Since": lastModified }],
    ["PUT", "/api/reviews/since/2024-01-01"],
    [
      "OPTIONS",
      "/api/reviews/since/2024-01-01",
      { Origin: "https://a.example", "Access-Control-Request-Method": "GET" },
    ],
    ["GET", "/healthz"],
    ["GET", "/nowhere"],
  ];
}

describe("the read API's fast path", () => {
  it("answers every request exactly as the Express app alone does", async () => {
    const first = await sendRaw(express.base, "GET", "/api/reviews/search");
    const since = await sendRaw(express.base, "GET", "/api/reviews/since/2024-01-01");
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers["last-modified"]);
    expect(etag).toMatch(/^"/);
    for (const [method, path, headers = {}, body] of cases(etag, lastModified, String(since.headers.etag))) {
      const idGiven = "X-Request-Id" in headers;
      const viaExpress = comparable(await sendRaw(express.base, method, path, headers, body), idGiven);
      const viaFast = comparable(await sendRaw(fast.base, method, path, headers, body), idGiven);
      expect(viaFast, `${method} ${path} ${JSON.stringify(headers)}`).toEqual(viaExpress);
    }
  });

  it("answers the hot reads itself, logging each with its request id and counting it", async () => {
    lines.length = 0;
    const asked: [string, string, Record<string, string>][] = [
      ["GET", "/api/reviews/search?rating=5", { "X-Request-Id": "fast-1" }],
      ["HEAD", "/api/reviews/search?rating=5", { "X-Request-Id": "fast-2" }],
      ["GET", "/api/reviews/search?limit=0", { "X-Request-Id": "fast-3" }],
      ["GET", "/api/reviews/since/2024-01-01", { "X-Request-Id": "fast-4" }],
    ];
    const before = await fastMetrics.registry.getSingleMetricAsString("http_requests_total");
    for (const [method, path, headers] of asked) await sendRaw(fast.base, method, path, headers);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const entries = lines.map(
      (line) => JSON.parse(line) as { req: { id: string; headers?: unknown }; res: { statusCode: number } },
    );
    for (const [, , headers] of asked) {
      const entry = entries.find((e) => e.req.id === headers["X-Request-Id"]);
      // pino-http logs the request headers; the fast path's lighter line does not.
      expect(entry, headers["X-Request-Id"]).toBeDefined();
      expect(entry?.req.headers).toBeUndefined();
    }
    expect(entries.find((e) => e.req.id === "fast-3")?.res.statusCode).toBe(400);
    const after = await fastMetrics.registry.getSingleMetricAsString("http_requests_total");
    expect(after).not.toBe(before);
    expect(after).toContain('http_requests_total{method="HEAD",route="/api/reviews/search",status="200"}');
    expect(after).toContain('http_requests_total{method="GET",route="/api/reviews/since/:date",status="200"}');
  });
});
