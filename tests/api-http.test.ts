/**
 * HTTP around the read routes on the shared build of the sample data: conditional GET, HEAD, CORS,
 * 404/405/413, request ids, access logs and /healthz.
 */
import { request as httpRequest } from "node:http";
import { createApp } from "@riverbend/server/app.ts";
import { type Logger, pino } from "pino";
import { describe, expect, it } from "vitest";
import { expectNoLeak, get, reviewCount, SITE, server, store, useApiServer } from "./support/api-server.ts";
import { listen } from "./support/http.ts";

useApiServer();

describe("conditional GET", () => {
  const PATHS = ["/api/reviews/since/2026-01-01", "/api/reviews/search?rating=5&limit=3", "/api/reviews/search"];

  it("sends a strong ETag derived from the data version and the query, and Last-Modified from the data", async () => {
    const dataModified = store.current.bundle.entries.get("/reviews.json")?.last_modified;
    expect(dataModified).toMatch(/GMT$/);
    const tags = new Set<string>();
    for (const url of PATHS) {
      const response = await get(url);
      const body = new Uint8Array(await response.arrayBuffer());
      const etag = response.headers.get("etag") ?? "";
      expect(etag, url).toMatch(/^"[A-Za-z0-9_-]{16,}"$/); // strong: no W/ prefix
      expect(etag.startsWith(`"${store.current.index.version}-`), url).toBe(true);
      expect(response.headers.get("last-modified"), url).toBe(dataModified);
      expect(response.headers.get("access-control-expose-headers") ?? "", url).toMatch(/ETag/i);
      tags.add(etag);
      // The same request gets the same tag and the same bytes; another content coding another tag.
      const again = await get(url);
      expect(new Uint8Array(await again.arrayBuffer())).toEqual(body);
      expect(again.headers.get("etag")).toBe(etag);
      const identity = await get(url, { "Accept-Encoding": "identity" });
      await identity.arrayBuffer();
      expect(identity.headers.get("etag"), url).not.toBe(etag);
    }
    expect(tags.size, "different bodies, different tags").toBe(PATHS.length);
  });

  it("sends the same status, validators, coding and bytes whether an answer is new, just kept or from the cache", async () => {
    const urls = ["/api/reviews/search?min_rating=2&limit=7&sort=oldest", "/api/reviews/since/2025-03-01?limit=4"];
    for (const url of urls) {
      for (const coding of ["gzip", "identity"]) {
        const seen = [];
        for (let ask = 0; ask < 3; ask++) {
          const response = await get(url, { "Accept-Encoding": coding });
          const { headers } = response;
          const head = ["etag", "content-type", "content-encoding", "cache-control", "vary", "last-modified"];
          seen.push({
            status: response.status,
            headers: head.map((name) => headers.get(name)),
            body: Buffer.from(await response.arrayBuffer()).toString("utf8"),
          });
        }
        expect(seen[0]?.status, `${url} ${coding}`).toBe(200);
        expect(seen[1], `${url} ${coding}: kept on the second request`).toEqual(seen[0]);
        expect(seen[2], `${url} ${coding}: from the cache`).toEqual(seen[0]);
      }
    }
  });

  it("answers If-None-Match and If-Modified-Since with 304 and an empty body", async () => {
    for (const url of PATHS) {
      const first = await get(url);
      const etag = first.headers.get("etag") ?? "";
      const lastModified = first.headers.get("last-modified") ?? "";
      const firstBody = new Uint8Array(await first.arrayBuffer());
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
        expect(new Uint8Array(await changed.arrayBuffer())).toEqual(firstBody);
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

  // A regression test: the limit once read only Content-Length, so a chunked body of any size passed
  // (answered 405 after Node read and discarded it all). packages/server/src/http/limits.ts now counts bytes.
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
