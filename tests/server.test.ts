import { gunzipSync } from "node:zlib";
import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import type { Bundle } from "@riverbend/server/bundle/load-bundle.ts";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listen } from "./support/http.ts";

const SITE = "https://reviews.test";
const TOPICS = ["/feed.xml", "/api/feed.json", "/reviews.json"];
const TYPES: Record<string, string> = {
  "/reviews.json": "application/json; charset=utf-8",
  "/insights.json": "application/json; charset=utf-8",
  "/openapi.json": "application/json; charset=utf-8",
  "/api/feed.json": "application/feed+json; charset=utf-8",
  "/feed.xml": "application/atom+xml; charset=utf-8",
  "/": "text/html; charset=utf-8",
  "/reviews/": "text/html; charset=utf-8",
  "/site.css": "text/css; charset=utf-8",
};

let bundle: Bundle;
let store: BundleStore;
let server: { base: string; close: () => Promise<void> };
const logger = pino({ level: "silent" });

beforeAll(async () => {
  store = new BundleStore(inject("sampleDist"), logger);
  bundle = store.current.bundle;
  server = await listen(createApp({ config: { SITE_URL: SITE, SERVE_STATIC: true }, store, logger }));
});
afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.base}${path}`, { headers, redirect: "manual" });

describe("serving the built documents", () => {
  it("serves every file of the manifest with its type, strong ETag and data-derived Last-Modified", async () => {
    expect(bundle.entries.size).toBeGreaterThan(270);
    for (const entry of bundle.entries.values()) {
      const response = await get(entry.path, { "Accept-Encoding": "identity" });
      expect(response.status, entry.path).toBe(200);
      expect(response.headers.get("content-type"), entry.path).toBe(entry.content_type);
      expect(response.headers.get("etag")).toBe(entry.etag);
      expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
      expect(response.headers.get("last-modified")).toBe(entry.last_modified);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("cache-control")).toMatch(/^public, /);
      expect(Buffer.from(await response.arrayBuffer()).length).toBe(entry.size);
    }
  });

  it("uses the media types each document needs", async () => {
    for (const [path, type] of Object.entries(TYPES)) {
      expect((await get(path)).headers.get("content-type"), path).toBe(type);
    }
  });

  it("answers If-None-Match and If-Modified-Since with 304 and an empty body", async () => {
    for (const path of [...TOPICS, "/insights.json", "/"]) {
      const first = await get(path);
      const etag = first.headers.get("etag") ?? "";
      const lastModified = first.headers.get("last-modified") ?? "";
      await first.arrayBuffer();
      for (const headers of [
        { "If-None-Match": etag },
        { "If-None-Match": etag, "Cache-Control": "no-cache" },
        { "If-None-Match": `"nope", W/${etag}` },
        { "If-None-Match": "*" },
        { "If-Modified-Since": lastModified },
      ]) {
        const again = await get(path, headers);
        expect(again.status, `${path} ${JSON.stringify(headers)}`).toBe(304);
        expect(await again.text()).toBe("");
      }
      const changed = await get(path, { "If-None-Match": '"something-else"', "If-Modified-Since": lastModified });
      expect(changed.status, "If-None-Match takes precedence over If-Modified-Since").toBe(200);
      await changed.arrayBuffer();
      const older = await get(path, { "If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT" });
      expect(older.status).toBe(200);
      await older.arrayBuffer();
    }
  });

  it("advertises the hub and the topic in a Link header on the three WebSub topics only", async () => {
    for (const path of TOPICS) {
      expect((await get(path)).headers.get("link")).toMatch(
        new RegExp(`^<${SITE}/api/websub/hub>; rel="hub", <${SITE}${path}>; rel="self", `),
      );
    }
    // Every file also carries the discovery links (tests/discovery.test.ts), but no hub.
    expect((await get("/insights.json")).headers.get("link")).not.toContain('rel="hub"');
  });

  it("compresses when the client accepts it", async () => {
    const response = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      import("node:http").then(({ get: httpGet }) => {
        httpGet(`${server.base}/reviews.json`, { headers: { "Accept-Encoding": "gzip" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    });
    expect(response.encoding).toBe("gzip");
    const entry = bundle.entries.get("/reviews.json");
    expect(gunzipSync(response.body).length).toBe(entry?.size);
    expect(response.body.length).toBeLessThan((entry?.size ?? 0) / 2);
  });

  it("answers HEAD like GET without a body", async () => {
    const response = await fetch(`${server.base}/reviews.json`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(bundle.entries.get("/reviews.json")?.etag);
    expect(await response.text()).toBe("");
  });

  it("answers unknown paths with a JSON 404 and wrong methods with a JSON 405", async () => {
    const missing = await get("/nothing/here.json");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await missing.json()).toEqual({ error: "not_found", message: "No resource at /nothing/here.json." });
    expect((await get("/build-manifest.json")).status).toBe(404);

    const post = await fetch(`${server.base}/reviews.json`, { method: "POST", body: "x" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect((await post.json()).error).toBe("method_not_allowed");
  });

  it("redirects a page path without its trailing slash", async () => {
    const response = await get("/reviews?x=1");
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/reviews/?x=1");
  });

  it("serves nothing static when SERVE_STATIC is off", async () => {
    const bare = await listen(createApp({ config: { SITE_URL: SITE, SERVE_STATIC: false }, store, logger }));
    try {
      const response = await fetch(`${bare.base}/reviews.json`);
      expect(response.status).toBe(404);
      expect((await response.json()).error).toBe("not_found");
    } finally {
      await bare.close();
    }
  });
});
