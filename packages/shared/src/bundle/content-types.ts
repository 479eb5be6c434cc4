import { PUBLISHED_DOCUMENTS } from "../registry/documents.ts";

/** Media types of published documents. Astro drops endpoint headers in static builds, so servers and CDN configs use this. */
const BY_PATH: ReadonlyMap<string, string> = new Map(PUBLISHED_DOCUMENTS.map((row) => [row.path, row.mediaType]));

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

/** A registered document's type, else the type its file extension names (assets, page families). */
export function contentTypeFor(urlPath: string, file: string): string {
  const exact = BY_PATH.get(urlPath);
  if (exact) return exact;
  const dot = file.lastIndexOf(".");
  return (dot >= 0 && BY_EXTENSION[file.slice(dot).toLowerCase()]) || "application/octet-stream";
}
