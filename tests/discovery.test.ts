import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import type { Bundle } from "@riverbend/server/bundle/load-bundle.ts";
import {
  MCP_CURRENT_REVISION,
  MCP_REVISION_NOTES,
  MCP_REVISIONS,
  MCP_SESSION_REVISIONS,
} from "@riverbend/shared/mcp-catalog/protocol.ts";
import { DISCOVERY_LINK } from "@riverbend/shared/registry/links.ts";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TEST_SITE_URL as SITE } from "./support/global-setup.ts";
import { listen } from "./support/http.ts";
import { pinnedClient } from "./support/mcp-modern.ts";
import { initializeRaw } from "./support/mcp-rpc.ts";

const logger = pino({ level: "silent" });
let bundle: Bundle;
let server: { base: string; close: () => Promise<void> };
let dist: string;

beforeAll(async () => {
  dist = inject("sampleDist");
  const store = new BundleStore(dist, logger);
  bundle = store.current.bundle;
  server = await listen(createApp({ config: { SITE_URL: SITE, SERVE_STATIC: true }, store, logger }));
});
afterAll(() => server.close());

const get = (urlPath: string, init: RequestInit = {}) =>
  fetch(`${server.base}${urlPath}`, { redirect: "manual", ...init });
/** The path of a URL of the site, or undefined for another site's URL. */
const sitePath = (url: string) => (url.startsWith(`${SITE}/`) ? url.slice(SITE.length) : undefined);

describe("discovery documents served by the sidecar", () => {
  const TYPES: Record<string, string> = {
    "/llms.txt": "text/markdown; charset=utf-8",
    "/.well-known/api-catalog": 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    "/.well-known/mcp/server-card.json": "application/json; charset=utf-8",
    "/robots.txt": "text/plain; charset=utf-8",
    "/sitemap.xml": "application/xml; charset=utf-8",
    "/api/": "text/html; charset=utf-8",
  };

  it("serves each with its media type, CORS and the discovery Link header", async () => {
    for (const [urlPath, type] of Object.entries(TYPES)) {
      const response = await get(urlPath);
      expect(response.status, urlPath).toBe(200);
      expect(response.headers.get("content-type"), urlPath).toBe(type);
      expect(response.headers.get("access-control-allow-origin"), urlPath).toBe("*");
      expect(response.headers.get("link"), urlPath).toBe(DISCOVERY_LINK);
      await response.arrayBuffer();
    }
    const card = await get("/.well-known/mcp/server-card.json");
    expect(card.headers.get("cache-control")).toBe("public, max-age=3600");
    await card.arrayBuffer();
  });

  it("advertises llms.txt and the API catalog on pages, documents, topics, API answers, errors and MCP", async () => {
    const describedBy = '</llms.txt>; rel="describedby"; type="text/markdown"';
    const catalog = '</.well-known/api-catalog>; rel="api-catalog"';
    const responses = [
      await get("/"),
      await get("/reviews/"),
      await get("/insights.json"),
      await get("/api/reviews/search?limit=1"),
      await get("/api/reviews/since/2025-01-01"),
      await get("/api/reviews/search?limit=0"),
      await get("/no/such/thing"),
      await get("/mcp"),
      await get("/api/websub/hub"),
    ];
    for (const response of responses) {
      const link = response.headers.get("link") ?? "";
      expect(link, response.url).toContain(describedBy);
      expect(link, response.url).toContain(catalog);
      await response.arrayBuffer();
    }
    for (const topic of ["/feed.xml", "/api/feed.json", "/reviews.json"]) {
      const response = await get(topic);
      expect(response.headers.get("link")).toBe(
        `<${SITE}/api/websub/hub>; rel="hub", <${SITE}${topic}>; rel="self", ${DISCOVERY_LINK}`,
      );
      await response.arrayBuffer();
    }
  });

  it("llms.txt has an H1, a summary and sections of one-line links that all work", async () => {
    const text = await (await get("/llms.txt")).text();
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines.find((l) => l.startsWith(">"))).toMatch(/^> \S/);
    expect(lines.filter((l) => l.startsWith("## "))).toEqual(["## Documents", "## API", "## MCP"]);
    const links = lines.filter((l) => l.startsWith("- ")).map((l) => /^- \[([^\]]+)\]\((\S+)\): \S/.exec(l));
    expect(links.every(Boolean), "every list line is `- [title](url): note`").toBe(true);
    const urls = links.map((m) => m?.[2] ?? "");
    for (const required of ["/reviews.json", "/insights.json", "/api/feed.json", "/feed.xml", "/openapi.json"]) {
      expect(urls).toContain(`${SITE}${required}`);
    }
    for (const required of ["/api/", "/sitemap.xml", "/api/websub/hub", "/mcp", "/.well-known/mcp/server-card.json"]) {
      expect(urls).toContain(`${SITE}${required}`);
    }
    for (const url of urls) {
      const urlPath = sitePath(url);
      expect(urlPath, url).toBeDefined();
      // This app runs without a hub (tests/hub*.test.ts start one); the hub answers POST only anyway.
      if (urlPath === "/api/websub/hub") continue;
      const response = await get(urlPath ?? "");
      // The MCP endpoint takes POST only; everything else must answer a GET.
      expect(response.status, url).toBe(urlPath === "/mcp" ? 405 : 200);
      await response.arrayBuffer();
    }
  });

  it("the API catalog is an RFC 9264 linkset whose links resolve", async () => {
    const catalog = (await (await get("/.well-known/api-catalog")).json()) as {
      linkset: Array<Record<string, unknown> & { anchor: string }>;
    };
    const [api, mcp] = catalog.linkset;
    expect(api?.anchor).toBe(`${SITE}/`);
    expect(mcp?.anchor).toBe(`${SITE}/mcp`);
    for (const rel of ["service-desc", "service-doc", "describedby", "alternate", "hub", "sitemap"]) {
      expect(api?.[rel], rel).toBeInstanceOf(Array);
    }
    const hrefOf = (entry: Record<string, unknown> | undefined, rel: string) =>
      ((entry?.[rel] ?? []) as { href: string }[])[0]?.href;
    expect(hrefOf(api, "service-desc")).toBe(`${SITE}/openapi.json`);
    expect(hrefOf(api, "service-doc")).toBe(`${SITE}/api/`);
    expect(hrefOf(api, "describedby")).toBe(`${SITE}/llms.txt`);
    expect(hrefOf(api, "hub")).toBe(`${SITE}/api/websub/hub`);
    expect(hrefOf(mcp, "service-desc")).toBe(`${SITE}/.well-known/mcp/server-card.json`);
    for (const entry of catalog.linkset) {
      for (const [rel, targets] of Object.entries(entry)) {
        if (rel === "anchor") continue;
        for (const { href, type } of targets as { href: string; type?: string }[]) {
          const urlPath = sitePath(href)?.split("#")[0] ?? "";
          if (rel === "hub") continue;
          const file = bundle.entries.get(urlPath);
          expect(file, href).toBeDefined();
          expect(file?.content_type.split(";")[0], href).toBe(type);
        }
      }
    }
  });
});

describe("the MCP server card", () => {
  it("lists exactly what a 2026-07-28 client gets from the running server, and the 2025 revisions it serves", async () => {
    const card = await (await get("/.well-known/mcp/server-card.json")).json();
    expect(card.protocolVersion).toBe(MCP_CURRENT_REVISION);
    expect(card.protocolVersions).toEqual([...MCP_REVISIONS]);
    expect(Object.keys(card.revisions)).toEqual([...MCP_REVISIONS]);
    expect(card.transport).toEqual({ type: "streamable-http", endpoint: `${SITE}/mcp` });

    const modern = await pinnedClient(server.base, "discovery-test");
    try {
      expect(modern.getDiscoverResult()?.supportedVersions).toEqual([card.protocolVersion]);
      expect(card.tools).toEqual((await modern.listTools()).tools);
      expect(card.prompts).toEqual((await modern.listPrompts()).prompts);
      expect(card.capabilities).toEqual(modern.getServerCapabilities());
      const info = modern.getServerVersion();
      expect({ name: card.name, title: card.title, version: card.version }).toEqual({
        name: info?.name,
        title: info?.title,
        version: info?.version,
      });
      expect(card.description).toBe(modern.getInstructions());
    } finally {
      await modern.close();
    }

    for (const revision of MCP_SESSION_REVISIONS) {
      const init = await initializeRaw(server.base, revision);
      expect(init.reply.json?.result.protocolVersion, revision).toBe(revision);
      // The same capabilities, but no resource subscriptions: a 2025 session has no stream to carry them.
      expect(init.reply.json?.result.capabilities).toEqual({ ...card.capabilities, resources: { listChanged: false } });
    }
  });

  it("llms.txt names both revisions with how to speak each, from the same definitions", async () => {
    const text = await (await get("/llms.txt")).text();
    for (const revision of MCP_REVISIONS) {
      expect(text).toContain(`- [MCP ${revision}](${SITE}/mcp): ${MCP_REVISION_NOTES[revision]}`);
    }
  });
});

describe("robots.txt and the sitemap", () => {
  it("robots.txt allows everything and names the sitemap by its absolute URL", async () => {
    const text = await (await get("/robots.txt")).text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Allow: \/$/m);
    expect(text).not.toMatch(/^Disallow: \S/m);
    expect(text).toMatch(/^Content-Signal: search=yes, ai-input=yes, ai-train=no$/m);
    expect(text).toContain(`\nSitemap: ${SITE}/sitemap.xml\n`);
  });

  it("is well-formed and lists every HTML page of the build, each mapping to a file", async () => {
    const files = [...bundle.entries.values()].filter((e) => /^\/(sitemap\.xml|sitemaps\/)/.test(e.path));
    expect(files.map((e) => e.path)).toContain("/sitemap.xml");
    for (const entry of files) {
      execFileSync("xmllint", ["--noout", path.join(dist, entry.file)]);
    }
    const xml = readFileSync(path.join(dist, "sitemap.xml"), "utf8");
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? "");
    expect(new Set(locs).size).toBe(locs.length);
    const pages = [...bundle.entries.values()].filter((e) => e.content_type.startsWith("text/html")).map((e) => e.path);
    expect(locs.map((loc) => sitePath(loc)).sort()).toEqual(pages.sort());
    for (const page of ["/", "/api/", "/reviews/", "/reviews/page/2/"]) expect(locs).toContain(`${SITE}${page}`);
    const reviews = JSON.parse(readFileSync(path.join(dist, "reviews.json"), "utf8")).reviews as { id: string }[];
    for (const review of reviews) expect(locs).toContain(`${SITE}/reviews/${review.id}/`);
    expect(xml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);
  });

  it("keeps _headers in the build folder but out of the manifest, the sitemap and the server", async () => {
    expect(existsSync(path.join(dist, "_headers"))).toBe(true);
    expect(bundle.entries.has("/_headers")).toBe(false);
    expect(readFileSync(path.join(dist, "sitemap.xml"), "utf8")).not.toContain("_headers");
    const response = await get("/_headers");
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });
});
