import { API_CATALOG_TYPE } from "../discovery/links.ts";

/** Media types of published files. Astro drops endpoint headers in static builds, so servers and CDN configs use this. */
const BY_PATH: Record<string, string> = {
  "/api/feed.json": "application/feed+json; charset=utf-8",
  "/feed.xml": "application/atom+xml; charset=utf-8",
  // llmstxt.org: the file is Markdown, and a browser shows text/markdown as text anyway.
  "/llms.txt": "text/markdown; charset=utf-8",
  "/.well-known/api-catalog": API_CATALOG_TYPE,
};

const BY_EXTENSION: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
};

export function contentTypeFor(urlPath: string, file: string): string {
  const exact = BY_PATH[urlPath];
  if (exact) return exact;
  const dot = file.lastIndexOf(".");
  return (dot >= 0 && BY_EXTENSION[file.slice(dot).toLowerCase()]) || "application/octet-stream";
}
