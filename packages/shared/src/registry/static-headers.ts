import type { SiteUrls } from "../web/urls.ts";
import { documentAt, TOPIC_PATHS } from "./documents.ts";
import { DISCOVERY_LINK } from "./links.ts";

const TOPICS = new Set<string>(TOPIC_PATHS);

/** Headers every published file gets, whatever its type: a CDN config sets them once for `/*`. */
export const EVERY_FILE_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, Last-Modified, Link",
  "X-Content-Type-Options": "nosniff",
};

function cacheControl(path: string, contentType: string): string {
  // Astro's hashed assets never change under the same name; documents change with the data.
  if (path.startsWith("/_astro/")) return "public, max-age=31536000, immutable";
  // Documents that change with the code, not the data: an hour of caching costs nothing.
  if (documentAt(path)?.cache === "code") return "public, max-age=3600";
  if (contentType.startsWith("text/html")) return "public, max-age=0, must-revalidate";
  return "public, max-age=300, must-revalidate";
}

/**
 * Framing: the review widget at /embed/ may be framed by any site (README, "Embedding") and loads
 * only its own stylesheet and script; every other page may not be framed at all. The badge SVG runs
 * nothing and loads nothing, whether shown in an <img> or opened on its own.
 */
export const EMBED_PATH = "/embed/";
const EMBED_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *";
const PAGE_CSP = "frame-ancestors 'none'";
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'";

function securityHeaders(path: string, contentType: string): Record<string, string> {
  if (path === EMBED_PATH) return { "Content-Security-Policy": EMBED_CSP };
  if (contentType.startsWith("text/html")) return { "Content-Security-Policy": PAGE_CSP, "X-Frame-Options": "DENY" };
  if (contentType.startsWith("image/svg+xml")) return { "Content-Security-Policy": SVG_CSP };
  return {};
}

/**
 * The headers of a published file that depend on its path and type only, without validators: the
 * sidecar adds ETag and Last-Modified from the manifest, while a CDN computes its own. The sidecar,
 * `_headers` and the nginx example are all derived from this one function, so they cannot disagree.
 */
export function fileHeaders(path: string, contentType: string, urls: SiteUrls): Record<string, string> {
  const link = TOPICS.has(path)
    ? `<${urls.hub}>; rel="hub", <${urls.base}${path}>; rel="self", ${DISCOVERY_LINK}`
    : DISCOVERY_LINK;
  return {
    "Content-Type": contentType,
    "Cache-Control": cacheControl(path, contentType),
    ...EVERY_FILE_HEADERS,
    ...securityHeaders(path, contentType),
    Link: link,
  };
}
