import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { headersFor } from "@riverbend/server/static/headers.ts";
import { TOPIC_PATHS } from "@riverbend/shared/registry/documents.ts";
import type { BuildManifest } from "@riverbend/shared/schemas/manifest.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { describe, expect, inject, it } from "vitest";
import { headerRules } from "../src/discovery/cdn/header-rules.ts";
import { renderNginxConf } from "../src/discovery/cdn/nginx-conf.ts";
import { buildSitemaps, MAX_URLS_PER_SITEMAP } from "../src/discovery/sitemap/sitemap.ts";
import { TEST_SITE_URL } from "./support/global-setup.ts";

const manifest = (): BuildManifest =>
  JSON.parse(readFileSync(path.join(inject("sampleDist"), "build-manifest.json"), "utf8"));

interface Block {
  pattern: string;
  headers: [string, string][];
}

/** Parses `_headers` as Cloudflare Pages and Netlify document it: a path line, then indented `Name: value` lines. */
function parseHeadersFile(text: string): Block[] {
  const blocks: Block[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      blocks.push({ pattern: line.trim(), headers: [] });
      continue;
    }
    const colon = line.indexOf(":");
    const block = blocks.at(-1);
    if (!block || colon < 0) throw new Error(`stray line: ${line}`);
    block.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return blocks;
}

const matches = (pattern: string, urlPath: string) =>
  pattern.endsWith("*") ? urlPath.startsWith(pattern.slice(0, -1)) : pattern === urlPath;

describe("_headers", () => {
  const text = readFileSync(path.join(inject("sampleDist"), "_headers"), "utf8");
  const blocks = parseHeadersFile(text);

  it("gives every file of the build the headers the sidecar sends, validators aside", () => {
    const urls = siteUrls(TEST_SITE_URL);
    const { entries } = manifest();
    expect(entries.length).toBeGreaterThan(270);
    for (const entry of entries) {
      const effective: Record<string, string> = {};
      const setBy = new Map<string, string>();
      for (const block of blocks.filter((b) => matches(b.pattern, entry.path))) {
        for (const [name, value] of block.headers) {
          // Cloudflare joins a header two matching rules set, Netlify keeps one: neither may happen.
          expect(
            setBy.get(name),
            `${entry.path}: ${name} set by ${setBy.get(name)} and ${block.pattern}`,
          ).toBeUndefined();
          setBy.set(name, block.pattern);
          effective[name] = value;
        }
      }
      const { ETag: _etag, "Last-Modified": _lastModified, ...expected } = headersFor(entry, urls);
      expect(effective, entry.path).toEqual(expected);
    }
  });

  it("has the WebSub Link on the three topics, the discovery Link everywhere, and fits Cloudflare's 100 rules", () => {
    for (const topic of TOPIC_PATHS) {
      const block = blocks.find((b) => b.pattern === topic);
      const link = block?.headers.find(([name]) => name === "Link")?.[1];
      expect(link).toContain(`<${TEST_SITE_URL}/api/websub/hub>; rel="hub", <${TEST_SITE_URL}${topic}>; rel="self"`);
    }
    expect(blocks[0]?.pattern).toBe("/*");
    expect(blocks.some((b) => b.pattern === "/reviews/*")).toBe(true);
    expect(blocks.length).toBeLessThanOrEqual(100);
    expect(text).not.toMatch(/^\/_headers$/m);
  });
});

describe("docs/deploy/nginx.conf", () => {
  const EXAMPLE = "https://reviews.example.com";
  const conf = renderNginxConf(headerRules(manifest().entries, siteUrls(EXAMPLE)), "reviews.example.com");

  it("is generated from the same header rules (update with -u)", async () => {
    await expect(conf).toMatchFileSnapshot("../docs/deploy/nginx.conf");
  });

  it("names each topic's hub and self links and proxies the sidecar's paths", () => {
    for (const topic of TOPIC_PATHS) {
      expect(conf).toContain(`location = ${topic} {`);
      expect(conf).toContain(
        `add_header Link '<${EXAMPLE}/api/websub/hub>; rel="hub", <${EXAMPLE}${topic}>; rel="self"`,
      );
    }
    for (const proxied of ["location ^~ /api/reviews/ {", "location ^~ /api/websub/ {", "location = /mcp {"]) {
      expect(conf).toContain(`${proxied}\n    proxy_pass http://reviews_sidecar;`);
    }
    expect(conf.split("{").length).toBe(conf.split("}").length);
  });
});

describe("sitemap index", () => {
  it("splits 120,001 pages into files of at most 50,000 under a well-formed sitemap index", () => {
    const pages = Array.from({ length: 120_001 }, (_, i) => ({ path: `/reviews/r${i}/`, lastmod: "2025-01-02" }));
    const files = buildSitemaps("https://reviews.test", pages.reverse());
    expect([...files.keys()].sort()).toEqual(["/sitemap.xml", "/sitemaps/1.xml", "/sitemaps/2.xml", "/sitemaps/3.xml"]);
    const index = files.get("/sitemap.xml") ?? "";
    expect(index).toContain("<sitemapindex ");
    expect([...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      "https://reviews.test/sitemaps/1.xml",
      "https://reviews.test/sitemaps/2.xml",
      "https://reviews.test/sitemaps/3.xml",
    ]);
    const dir = mkdtempSync(path.join(tmpdir(), "sitemaps-"));
    try {
      const seen = new Set<string>();
      for (const [urlPath, xml] of files) {
        const file = path.join(dir, urlPath.replaceAll("/", "_"));
        writeFileSync(file, xml);
        execFileSync("xmllint", ["--noout", file]);
        if (urlPath === "/sitemap.xml") continue;
        const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? "");
        expect(locs.length).toBeLessThanOrEqual(MAX_URLS_PER_SITEMAP);
        for (const loc of locs) seen.add(loc);
      }
      expect(seen.size).toBe(120_001);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stays a plain urlset up to the limit", () => {
    const pages = Array.from({ length: 3 }, (_, i) => ({ path: `/p${i}/` }));
    const files = buildSitemaps("https://reviews.test", pages, 3);
    expect([...files.keys()]).toEqual(["/sitemap.xml"]);
    expect(buildSitemaps("https://reviews.test", [...pages, { path: "/q/" }], 3).size).toBe(3);
  });
});
