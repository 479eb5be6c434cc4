/**
 * The sidecar's read API over HTTP (an ephemeral loopback port) on the shared build of the sample
 * data: response shapes, 400s that list every problem, no 500 and no internal detail for garbage
 * input, conditional GET, HEAD, CORS, 404/405/413, request ids, access logs, /healthz, and a new
 * build swapped in while thousands of requests are in flight.
 *
 * Tests marked `it.fails` pin bugs found in sidecar/ (see the comment on each); flip them to `it`
 * once fixed. Property runs use FC_SEED (default below).
 */
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { type Logger, pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApp } from "../sidecar/src/app.ts";
import { BundleStore } from "../sidecar/src/bundle/bundle-store.ts";
import { ErrorResponseSchema } from "../src/schemas/errors.ts";
import type { Review } from "../src/schemas/review.ts";
import { SearchResponseSchema, SinceResponseSchema } from "../src/schemas/search.ts";
import { listen } from "./support/http.ts";
import { ROOT, runBuild } from "./support/run-build.ts";

const SEED = Number(process.env.FC_SEED ?? 20261101);
const SITE = "https://reviews.test";
const silent = pino({ level: "silent" });

type Server = { base: string; close: () => Promise<void> };

let store: BundleStore;
let server: Server;
let reviewCount: number;

beforeAll(async () => {
  store = new BundleStore(inject("sampleDist"), silent);
  reviewCount = store.current.index.reviews.length;
  server = await listen(createApp({ config: { SITE_URL: SITE, SERVE_STATIC: true }, store, logger: silent }));
});
afterAll(() => server.close());

const get = (url: string, headers: Record<string, string> = {}, base = server.base) =>
  fetch(`${base}${url}`, { headers, redirect: "manual" });

/** The strong ETag the service derives from the exact bytes of a body. */
const tagOf = (body: Uint8Array | string) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;

/** No stack frame, internal module, source file or checkout path in anything a client can read. */
function expectNoLeak(text: string, label = ""): void {
  expect(text, label).not.toMatch(/^\s+at /m);
  expect(text, label).not.toMatch(/\bat [\w.$<>[\] ]+ \(/);
  expect(text, label).not.toMatch(/node:internal|node_modules/);
  expect(text, label).not.toContain("/work/");
  expect(text, label).not.toContain(ROOT);
  expect(text, label).not.toMatch(/\.ts:\d|\.ts\)/);
  expect(text, label).not.toMatch(/\b(TypeError|ReferenceError|RangeError|SyntaxError|URIError)\b/);
}

/** A 400 in the documented shape; returns the parameter paths it names. */
async function expectInvalidRequest(response: Response): Promise<string[]> {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const text = await response.text();
  expectNoLeak(text);
  const body = JSON.parse(text);
  expect(ErrorResponseSchema.parse(body)).toEqual(body);
  expect(body.error).toBe("invalid_request");
  expect(body.message).toEqual(expect.any(String));
  expect(body.issues.length).toBeGreaterThan(0);
  for (const issue of body.issues) {
    expect(Object.keys(issue).sort()).toEqual(["code", "message", "path"]);
  }
  return body.issues.map((issue: { path: string }) => issue.path);
}

describe("GET /api/reviews/search", () => {
  it("answers 200 with total, count, limit, next_cursor and reviews", async () => {
    const response = await get("/api/reviews/search?limit=3");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
    const body = await response.json();
    expect(SearchResponseSchema.parse(body)).toEqual(body);
    expect(Object.keys(body)).toEqual(["total", "count", "limit", "next_cursor", "reviews"]);
    expect(body).toMatchObject({ total: reviewCount, count: 3, limit: 3 });
    expect(body.reviews.map((r: Review) => r.id)).toEqual(
      store.current.index.reviews.slice(0, 3).map((review) => review.id),
    );

    const next = await (await get(`/api/reviews/search?limit=3&cursor=${body.next_cursor}`)).json();
    expect(next.reviews.map((r: Review) => r.id)).toEqual(
      store.current.index.reviews.slice(3, 6).map((review) => review.id),
    );
  });

  it("applies filters and sorts from the query string", async () => {
    const body = await (
      await get("/api/reviews/search?mentions_technician=chris&min_rating=4&sort=oldest&limit=100&query=DRAIN")
    ).json();
    expect(body.total).toBeGreaterThan(0);
    for (const review of body.reviews as Review[]) {
      expect(review.technicians.some((name) => name.startsWith("Chris "))).toBe(true);
      expect(review.rating).toBeGreaterThanOrEqual(4);
      expect(`${review.title ?? ""}\n${review.text}`.toLowerCase()).toContain("drain");
    }
    const dates = (body.reviews as Review[]).map((review) => review.date);
    expect(dates).toEqual([...dates].sort());
    const none = await (await get("/api/reviews/search?mentions_technician=nobody")).json();
    expect(none).toEqual({ total: 0, count: 0, limit: 20, next_cursor: null, reviews: [] });
  });

  it("answers 400 listing every problem at once", async () => {
    const paths = await expectInvalidRequest(
      await get(
        "/api/reviews/search?min_ratting=3&rating=9&rating=2&query=&limit=0&since=2025-02-30&sort=random&until=tomorrow",
      ),
    );
    expect(paths.sort()).toEqual(["limit", "min_ratting", "query", "rating", "since", "sort", "until"]);
    expect(await expectInvalidRequest(await get("/api/reviews/search?since=2025-06-02&until=2025-06-01"))).toEqual([
      "since",
    ]);
    expect(await expectInvalidRequest(await get("/api/reviews/search?cursor=not-a-cursor"))).toEqual(["cursor"]);
    const response = await get("/api/reviews/search?limit=0");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = await response.json();
    expect(body).toEqual({
      error: "invalid_request",
      message: expect.stringContaining("limit"),
      issues: [{ path: "limit", code: "too_small", message: expect.any(String) }],
    });
  });

  it("rejects a cursor used with another query", async () => {
    const first = await (await get("/api/reviews/search?limit=2&sort=highest")).json();
    expect(
      await expectInvalidRequest(await get(`/api/reviews/search?limit=2&sort=lowest&cursor=${first.next_cursor}`)),
    ).toEqual(["cursor"]);
  });

  it("never answers 500 or leaks internals, whatever the query string", async () => {
    const KNOWN = ["rating", "min_rating", "since", "until", "query", "mentions_technician", "mentions_service"];
    const MORE = ["limit", "sort", "cursor"];
    const alphabet = fc.constantFrom(
      ..."abcdeiorstxyz_-.~+%&=;,[]{}()'\"!$*@? 0123456789".split(""),
      "é",
      "ü",
      "\u0301",
      "😀",
      "%00",
      "%zz",
      "%E0%A4%A",
      "%ED%A0%80",
      "%2F",
      "__proto__",
      "constructor",
    );
    const raw = fc.string({ unit: alphabet, maxLength: 60 });
    const pair = fc
      .tuple(
        fc.oneof(fc.constantFrom(...KNOWN, ...MORE), raw),
        fc.oneof(raw, fc.constantFrom("5", "2025-02-30", "newest")),
      )
      .map(([name, value]) => `${name}=${value}`);
    const queryString = fc.oneof(
      raw,
      fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join("&")),
    );
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(queryString, async (query) => {
        const response = await get(`/api/reviews/search?${query}`);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const text = await response.text();
        expect([200, 400], `${query} -> ${response.status} ${text.slice(0, 200)}`).toContain(response.status);
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        expectNoLeak(text, query);
        const body = JSON.parse(text);
        if (response.status === 200) SearchResponseSchema.parse(body);
        else {
          expect(body.error).toBe("invalid_request");
          expect(body.issues.length).toBeGreaterThan(0);
        }
      }),
      { seed: SEED, numRuns: 200 },
    );
    expect(statuses.get(400)).toBeGreaterThan(50);
  });
});

describe("GET /api/reviews/since/{date}", () => {
  it("answers reviews dated on or after the date, newest first", async () => {
    const response = await get("/api/reviews/since/2026-01-01");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = await response.json();
    expect(SinceResponseSchema.parse(body)).toEqual(body);
    expect(Object.keys(body)).toEqual(["since", "count", "reviews"]);
    expect(body.since).toBe("2026-01-01");
    expect(body.count).toBe(body.reviews.length);
    const expected = store.current.index.reviews.filter((review) => review.date >= "2026-01-01");
    expect(body.count).toBe(expected.length);
    expect(body.reviews.map((r: Review) => r.id)).toEqual(expected.map((review) => review.id));
    expect((await (await get("/api/reviews/since/2000-01-01")).json()).count).toBe(reviewCount);
  });

  it("answers 400 in the same shape for a malformed or impossible date", async () => {
    for (const date of [
      "yesterday",
      "2025-02-30",
      "2025-02-29",
      "2025-13-01",
      "2025-1-01",
      "20250101",
      "2025-01-01x",
    ]) {
      const response = await get(`/api/reviews/since/${date}`);
      expect(await expectInvalidRequest(response), date).toEqual(["date"]);
    }
  });

  // BUG (sidecar/src/http/error-handler.ts with Express's param decoding): a date segment that is
  // not valid percent-encoding ("%E0%A4%A", "%") fails in the router before the route runs, and the
  // error handler answers {"error":"bad_request","message":"The request could not be read."} with no
  // `issues`, unlike every other malformed date (invalid_request with issues [{path:"date"}]).
  // Clients that parse 400s by the documented shape get no issue list. Map the router's URIError for
  // this route to InvalidRequestError([{ path: "date", ... }]) (or read the raw segment).
  it("answers an undecodable date segment with the same 400 shape", async () => {
    expect(await expectInvalidRequest(await get("/api/reviews/since/%E0%A4%A"))).toEqual(["date"]);
  });

  it("answers 200 with an empty list for a future date", async () => {
    for (const date of ["2099-01-01", "9999-12-31"]) {
      const response = await get(`/api/reviews/since/${date}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ since: date, count: 0, reviews: [] });
    }
  });

  it("never answers 500 or leaks internals, whatever the date segment", async () => {
    const segment = fc
      .string({
        unit: fc.constantFrom(
          ..."0123456789-abcxyzT:.%+ ".split(""),
          "é",
          "%zz",
          "%E0%A4%A",
          "%2F",
          "2025-02-",
          "2026-01-01",
        ),
        minLength: 1,
        maxLength: 30,
      })
      .filter((s) => s.trim() !== "" && !s.includes("/"));
    await fc.assert(
      fc.asyncProperty(segment, async (date) => {
        const response = await get(`/api/reviews/since/${date}`);
        const text = await response.text();
        expect([200, 400], `${date} -> ${response.status} ${text}`).toContain(response.status);
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        expectNoLeak(text, date);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});

describe("conditional GET", () => {
  const PATHS = ["/api/reviews/since/2026-01-01", "/api/reviews/search?rating=5&limit=3", "/api/reviews/search"];

  it("sends a strong ETag that is the hash of the exact body, and Last-Modified from the data", async () => {
    const dataModified = store.current.bundle.entries.get("/reviews.json")?.last_modified;
    expect(dataModified).toMatch(/GMT$/);
    const tags = new Set<string>();
    for (const url of PATHS) {
      const response = await get(url);
      const body = new Uint8Array(await response.arrayBuffer());
      const etag = response.headers.get("etag") ?? "";
      expect(etag, url).toMatch(/^"[A-Za-z0-9_-]{16,}"$/); // strong: no W/ prefix
      expect(etag, url).toBe(tagOf(body));
      expect(response.headers.get("last-modified"), url).toBe(dataModified);
      expect(response.headers.get("access-control-expose-headers") ?? "", url).toMatch(/ETag/i);
      tags.add(etag);
      // The same request gets the same tag.
      const again = await get(url);
      await again.arrayBuffer();
      expect(again.headers.get("etag")).toBe(etag);
    }
    expect(tags.size, "different bodies, different tags").toBe(PATHS.length);
  });

  it("answers If-None-Match and If-Modified-Since with 304 and an empty body", async () => {
    for (const url of PATHS) {
      const first = await get(url);
      const etag = first.headers.get("etag") ?? "";
      const lastModified = first.headers.get("last-modified") ?? "";
      await first.arrayBuffer();
      for (const headers of [
        { "If-None-Match": etag },
        { "If-None-Match": etag, "Cache-Control": "no-cache" },
        { "If-None-Match": `"nope", ${etag}` },
        { "If-None-Match": `"nope",${etag} , "other"` },
        { "If-None-Match": `W/${etag}` },
        { "If-None-Match": "*" },
        { "If-Modified-Since": lastModified },
        { "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" },
        { "If-None-Match": etag, "If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT" },
      ]) {
        const label = `${url} ${JSON.stringify(headers)}`;
        const again = await get(url, headers);
        expect(again.status, label).toBe(304);
        expect(await again.text(), label).toBe("");
        expect(again.headers.get("etag"), label).toBe(etag);
        expect(again.headers.get("cache-control"), label).toMatch(/^public/);
        // RFC 9110 15.4.5: a 304 carries the Vary a 200 would have.
        expect(again.headers.get("vary"), label).toBe(first.headers.get("vary"));
      }
      for (const headers of [
        { "If-None-Match": '"something-else"', "If-Modified-Since": lastModified }, // INM takes precedence
        { "If-None-Match": `"nope", W/"also-nope"` },
        { "If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT" },
        { "If-Modified-Since": "not a date" },
      ]) {
        const changed = await get(url, headers);
        expect(changed.status, `${url} ${JSON.stringify(headers)}`).toBe(200);
        expect(changed.headers.get("etag")).toBe(etag);
        expect(tagOf(new Uint8Array(await changed.arrayBuffer()))).toBe(etag);
      }
    }
  });

  it("answers HEAD with the GET headers and no body", async () => {
    for (const url of [...PATHS, "/api/reviews/since/2099-01-01", "/healthz"]) {
      const getResponse = await get(url);
      await getResponse.arrayBuffer();
      const head = await fetch(`${server.base}${url}`, { method: "HEAD" });
      expect(head.status, url).toBe(200);
      expect(head.headers.get("content-type"), url).toBe(getResponse.headers.get("content-type"));
      expect(head.headers.get("etag"), url).toBe(getResponse.headers.get("etag"));
      expect(head.headers.get("last-modified"), url).toBe(getResponse.headers.get("last-modified"));
      expect(await head.text(), url).toBe("");
    }
    const conditional = await fetch(`${server.base}${PATHS[0]}`, { method: "HEAD", headers: { "If-None-Match": "*" } });
    expect(conditional.status).toBe(304);
    const invalid = await fetch(`${server.base}/api/reviews/search?limit=0`, { method: "HEAD" });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toBe("");
  });
});

describe("CORS, methods, limits and unknown paths", () => {
  it("answers CORS preflight with 204 and the allowed methods and headers", async () => {
    for (const url of ["/api/reviews/search?rating=5", "/api/reviews/since/2026-01-01"]) {
      const response = await fetch(`${server.base}${url}`, {
        method: "OPTIONS",
        headers: {
          Origin: "https://elsewhere.example",
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "if-none-match",
        },
      });
      expect(response.status, url).toBe(204);
      expect(await response.text()).toBe("");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      const methods = (response.headers.get("access-control-allow-methods") ?? "").split(/\s*,\s*/);
      expect(methods).toEqual(expect.arrayContaining(["GET", "HEAD"]));
      const allowed = (response.headers.get("access-control-allow-headers") ?? "").toLowerCase();
      expect(allowed).toContain("if-none-match");
      expect(allowed).toContain("if-modified-since");
      expect(Number(response.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    }
    const simple = await get("/api/reviews/since/2026-01-01", { Origin: "https://elsewhere.example" });
    await simple.arrayBuffer();
    expect(simple.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers a wrong method with a JSON 405 and an Allow header", async () => {
    for (const [method, url] of [
      ["POST", "/api/reviews/search"],
      ["PUT", "/api/reviews/search?rating=5"],
      ["DELETE", "/api/reviews/since/2026-01-01"],
      ["PATCH", "/api/reviews/since/2026-01-01"],
    ] as const) {
      const response = await fetch(`${server.base}${url}`, { method, ...(method === "POST" ? { body: "{}" } : {}) });
      expect(response.status, `${method} ${url}`).toBe(405);
      const allow = (response.headers.get("allow") ?? "").split(/\s*,\s*/);
      expect(allow).toEqual(expect.arrayContaining(["GET", "HEAD"]));
      expect(allow).not.toContain(method);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const text = await response.text();
      expectNoLeak(text);
      expect(JSON.parse(text)).toEqual({ error: "method_not_allowed", message: expect.any(String) });
    }
  });

  it("answers a request body over 64 KiB with a JSON 413", async () => {
    const response = await fetch(`${server.base}/api/reviews/search`, {
      method: "POST",
      body: "x".repeat(64 * 1024 + 1),
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: "payload_too_large", message: expect.any(String) });
    // Even on a GET, and at exactly the limit it is not refused for its size.
    expect((await rawRequest("GET", "/api/reviews/since/2026-01-01", "y".repeat(70_000))).status).toBe(413);
    expect((await rawRequest("GET", "/api/reviews/since/2099-01-01", "y".repeat(64 * 1024))).status).toBe(200);
  });

  // BUG (sidecar/src/http/limits.ts): the limit only reads Content-Length, so a body sent with
  // Transfer-Encoding: chunked (no Content-Length) of any size passes: 100 KiB chunked to
  // POST /api/reviews/search is answered 405, and Node reads and discards the whole body. Nothing
  // parses bodies today, so this is about the stated 413 guarantee and unbounded upload bandwidth,
  // not memory. Count bytes as they arrive (or refuse bodies without Content-Length) and answer 413.
  it("answers a chunked request body over 64 KiB with 413 too", async () => {
    const response = await rawRequest("POST", "/api/reviews/search", "z".repeat(100 * 1024), { chunked: true });
    expect(response.status).toBe(413);
  });

  it("answers unknown paths with a JSON 404", async () => {
    for (const url of [
      "/api/nothing",
      "/api/reviews",
      "/api/reviews/searches",
      "/api/reviews/since",
      "/nothing/here",
    ]) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      expect(response.headers.get("content-type"), url).toMatch(/^application\/json/);
      const body = await response.json();
      expect(body, url).toEqual({ error: "not_found", message: expect.any(String) });
    }
  });

  it("echoes X-Request-Id, or makes one up", async () => {
    const sent = await get("/api/reviews/since/2099-01-01", { "X-Request-Id": "trace-abc-123" });
    await sent.arrayBuffer();
    expect(sent.headers.get("x-request-id")).toBe("trace-abc-123");
    const failed = await get("/api/reviews/search?limit=0", { "X-Request-Id": "trace-400" });
    await failed.arrayBuffer();
    expect(failed.headers.get("x-request-id")).toBe("trace-400");
    const made = await get("/healthz");
    await made.arrayBuffer();
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("writes a JSON access log line per request with the request id", async () => {
    const lines: string[] = [];
    const logger: Logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const logged = await listen(createApp({ config: { SITE_URL: SITE, SERVE_STATIC: false }, store, logger }));
    try {
      const response = await get("/api/reviews/search?rating=5&limit=1", { "X-Request-Id": "log-me-1" }, logged.base);
      await response.arrayBuffer();
      const bad = await get("/api/reviews/search?limit=0", { "X-Request-Id": "log-me-2" }, logged.base);
      await bad.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await logged.close();
    }
    const entries = lines.map((line) => JSON.parse(line));
    const first = entries.find((entry) => entry.req?.id === "log-me-1");
    expect(first).toMatchObject({ req: { method: "GET" }, res: { statusCode: 200 } });
    expect(first.responseTime).toEqual(expect.any(Number));
    const second = entries.find((entry) => entry.req?.id === "log-me-2");
    expect(second).toMatchObject({ res: { statusCode: 400 } });
    for (const line of lines) expectNoLeak(line);
  });

  it("answers /healthz with the data being served", async () => {
    const response = await get("/healthz");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({
      status: "ok",
      reviews: reviewCount,
      data_sha256: store.current.bundle.manifest.data_sha256,
    });
  });
});

/** Sends a request with a body using node:http (fetch cannot send a body with GET). */
function rawRequest(
  method: string,
  url: string,
  body: string,
  options: { chunked?: boolean } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = options.chunked
      ? { "Transfer-Encoding": "chunked" }
      : { "Content-Length": Buffer.byteLength(body) };
    const req = httpRequest(`${server.base}${url}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    // The server may answer before reading the body and close: that is fine, the answer counts.
    req.on("error", reject);
    if (options.chunked) {
      for (let i = 0; i < body.length; i += 4096) req.write(body.slice(i, i + 4096));
      req.end();
    } else req.end(body);
  });
}

// ---------------------------------------------------------------------------
// A new build swapped in under load
// ---------------------------------------------------------------------------

const EXTRA_REVIEWS: Review[] = ["a", "b", "c"].map((letter, i) => ({
  id: `2026-05-0${i + 1}-swap-${letter}`,
  date: `2026-05-0${i + 1}`,
  rating: 5 - i,
  title: `Swap test review ${letter.toUpperCase()}`,
  text: `Written by the swap test (${letter}): Kevin T. replaced a corroded shutoff valve under the bathroom sink.`,
  author: { name: `Swap ${letter.toUpperCase()}.` },
  verified: true,
  verification: { method: "job_record" },
  source: "direct",
  technicians: ["Kevin T."],
  services: ["faucet-fixture"],
  service_area: "davis",
}));

/** A copy of data/ with the three extra reviews. */
function modifiedData(dir: string): string {
  cpSync(path.join(ROOT, "data"), dir, { recursive: true });
  for (const review of EXTRA_REVIEWS) {
    writeFileSync(path.join(dir, "reviews", `${review.id}.json`), `${JSON.stringify(review, null, 2)}\n`);
  }
  return dir;
}

describe("a new build swapped in under load", () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), "reviews-swap-"));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("serves the old data or the new, never a failure or a mix, and the new data after the swap", async () => {
    const dist = path.join(work, "dist");
    cpSync(inject("sampleDist"), dist, { recursive: true });
    const data = modifiedData(path.join(work, "data"));
    const swapStore = new BundleStore(dist, silent);
    const app = await listen(
      createApp({ config: { SITE_URL: SITE, SERVE_STATIC: false }, store: swapStore, logger: silent }),
    );
    const oldCount = swapStore.current.index.reviews.length;
    const newCount = oldCount + EXTRA_REVIEWS.length;
    const oldVersion = swapStore.current.index.version;

    const CONCURRENCY = 20;
    const START_BUILD_AFTER = 300;
    const MIN_TOTAL = 2000;
    const MIN_AFTER_SWAP = 400;
    const MAX_TOTAL = 40_000;

    let started = 0;
    let buildStarted = false;
    let swapped = false;
    let buildError: unknown;
    let startedDuringBuild = 0;
    let startedAfterSwap = 0;
    const failures: string[] = [];
    const seen = { since: new Map<number, number>(), search: new Map<number, number>() };
    const bump = (map: Map<number, number>, key: number) => map.set(key, (map.get(key) ?? 0) + 1);
    let cursorBeforeSwap: string | undefined;

    /** Builds the new data into dist/ and, while that runs, calls reload() until it swaps. */
    const startBuild = async () => {
      buildStarted = true;
      let finished = false;
      const run = runBuild({ DATA_DIR: data, DIST_DIR: dist, SITE_URL: SITE }).finally(() => {
        finished = true;
      });
      // Polling during the build also meets the moments when dist/ is being renamed.
      while (!swapStore.reload()) {
        if (finished) {
          const result = await run;
          if (result.code !== 0) throw new Error(`build failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
          if (swapStore.reload()) break;
          throw new Error("the new build landed but reload() never swapped it in");
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      swapped = true;
      const result = await run;
      if (result.code !== 0) throw new Error(`build failed (${result.code}):\n${result.stderr}`);
    };
    let buildDone: Promise<void> | undefined;
    const kickOff = () => {
      buildDone = startBuild().catch((error) => {
        buildError = error;
      });
    };

    const worker = async (n: number) => {
      for (let turn = 0; ; turn++) {
        if (started >= MAX_TOTAL || buildError !== undefined) return;
        if (swapped && startedAfterSwap >= MIN_AFTER_SWAP && started >= MIN_TOTAL) return;
        started++;
        if (!buildStarted && started >= START_BUILD_AFTER) kickOff();
        const afterSwap = swapped;
        if (afterSwap) startedAfterSwap++;
        else if (buildStarted) startedDuringBuild++;
        const kind = (n + turn) % 2 === 0 ? "since" : "search";
        const url = kind === "since" ? "/api/reviews/since/2020-01-01" : "/api/reviews/search?limit=5&sort=highest";
        let status = 0;
        try {
          const response = await fetch(`${app.base}${url}`, { headers: { "Accept-Encoding": "identity" } });
          status = response.status;
          const bytes = new Uint8Array(await response.arrayBuffer());
          if (status !== 200 && status !== 304) {
            failures.push(`${url} -> ${status} ${Buffer.from(bytes).toString("utf8").slice(0, 200)}`);
            continue;
          }
          if (response.headers.get("etag") !== tagOf(bytes)) failures.push(`${url}: ETag does not match the body`);
          const body = JSON.parse(Buffer.from(bytes).toString("utf8"));
          const count = kind === "since" ? body.count : body.total;
          bump(seen[kind], count);
          if (kind === "since" && body.count !== body.reviews.length) {
            failures.push(`since: count ${body.count} but ${body.reviews.length} reviews`);
          }
          if (count !== oldCount && count !== newCount) failures.push(`${url}: ${count} reviews, neither old nor new`);
          if (afterSwap && count !== newCount) failures.push(`${url}: old data (${count}) after the swap`);
          if (kind === "search" && !buildStarted) cursorBeforeSwap ??= body.next_cursor;
        } catch (error) {
          failures.push(`${url} -> ${status} ${(error as Error).message}`);
        }
      }
    };

    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, (_, n) => worker(n)));
      if (!buildStarted) kickOff();
      await buildDone;
      if (buildError !== undefined) throw buildError;

      expect(failures.slice(0, 20)).toEqual([]);
      expect(swapped).toBe(true);
      expect(started).toBeGreaterThanOrEqual(MIN_TOTAL);
      expect(started).toBeLessThanOrEqual(MAX_TOTAL);
      expect(startedDuringBuild, "requests were in flight while the build landed").toBeGreaterThan(0);
      expect(seen.since.get(oldCount) ?? 0, "old data served before the swap").toBeGreaterThan(0);
      expect(seen.since.get(newCount) ?? 0, "new data served after the swap").toBeGreaterThan(0);
      expect([...seen.since.keys()].sort()).toEqual([oldCount, newCount].sort());
      expect([...seen.search.keys()].every((count) => count === oldCount || count === newCount)).toBe(true);

      // After the swap: the new data everywhere, and cursors of the old data refused.
      expect(swapStore.current.index.version).not.toBe(oldVersion);
      const since = await (await fetch(`${app.base}/api/reviews/since/2026-05-01`)).json();
      expect(since.reviews.map((r: Review) => r.id)).toEqual(
        expect.arrayContaining(EXTRA_REVIEWS.map((review) => review.id)),
      );
      const health = await (await fetch(`${app.base}/healthz`)).json();
      expect(health.reviews).toBe(newCount);
      expect(cursorBeforeSwap).toEqual(expect.any(String));
      const stale = await fetch(`${app.base}/api/reviews/search?limit=5&sort=highest&cursor=${cursorBeforeSwap}`);
      expect(await expectInvalidRequest(stale)).toEqual(["cursor"]);
      // Nothing more to load.
      expect(swapStore.reload()).toBe(false);
    } finally {
      await app.close();
    }
  }, 180_000);

  describe("static documents between a build landing and the next reload", () => {
    let staticStore: BundleStore;
    let app: Server;
    let oldEtag: string | undefined;
    let landed: { etag: string | null; body: string };
    beforeAll(async () => {
      const dist = path.join(work, "static-dist");
      cpSync(inject("sampleDist"), dist, { recursive: true });
      const data = modifiedData(path.join(work, "static-data"));
      staticStore = new BundleStore(dist, silent);
      oldEtag = staticStore.current.bundle.entries.get("/reviews.json")?.etag;
      app = await listen(
        createApp({ config: { SITE_URL: SITE, SERVE_STATIC: true }, store: staticStore, logger: silent }),
      );
      const run = await runBuild({ DATA_DIR: data, DIST_DIR: dist, SITE_URL: SITE });
      if (run.code !== 0) throw new Error(`build failed (${run.code}):\n${run.stderr}`);
      // The build has landed; the store has not polled yet (as between two RELOAD_INTERVAL_MS ticks).
      const response = await fetch(`${app.base}/reviews.json`, { headers: { "Accept-Encoding": "identity" } });
      landed = { etag: response.headers.get("etag"), body: await response.text() };
    }, 120_000);
    afterAll(() => app.close());

    it("still answers, and with the new build's bytes", () => {
      expect(oldEtag).toMatch(/^"[0-9a-f]{32}"$/);
      for (const review of EXTRA_REVIEWS) expect(landed.body).toContain(review.id);
    });

    // BUG (sidecar/src/static/serve-bundle.ts with the rename swap in src/build/build-site.ts): a
    // build lands by renaming its folder onto DIST_DIR, but until the store's next poll (up to
    // RELOAD_INTERVAL_MS, 2 s by default) the static handler answers from the *old* manifest (ETag,
    // Last-Modified, Content-Type) while `sendFile` reads DIST_DIR, which now holds the *new* bytes.
    // Observed: /reviews.json served with the old strong ETag and the new body, i.e. half of each
    // build; a cache then keeps the new body under the old validator. Serve a loaded bundle from a
    // folder that cannot change under it (per-build directories, or the bytes the manifest hashed),
    // or check the manifest stamp before serving and reload first when it changed.
    it("never pairs the validators of one build with the bytes of another", () => {
      const sha = createHash("sha256").update(landed.body).digest("hex");
      expect(landed.etag).toBe(`"${sha.slice(0, 32)}"`);
    });
  });
});
