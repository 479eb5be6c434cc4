import type { ManifestEntry } from "../../../src/schemas/manifest.ts";
import type { SiteUrls } from "../../../src/site/urls.ts";
import { TOPIC_PATHS } from "../../../src/site/urls.ts";

const TOPICS = new Set<string>(TOPIC_PATHS);

function cacheControl(entry: ManifestEntry): string {
  // Astro's hashed assets never change under the same name; documents change with the data.
  if (entry.path.startsWith("/_astro/")) return "public, max-age=31536000, immutable";
  if (entry.content_type.startsWith("text/html")) return "public, max-age=0, must-revalidate";
  return "public, max-age=300, must-revalidate";
}

/** Response headers of a published file, from its manifest entry alone. */
export function headersFor(entry: ManifestEntry, urls: SiteUrls): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": entry.content_type,
    ETag: entry.etag,
    "Last-Modified": entry.last_modified,
    "Cache-Control": cacheControl(entry),
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "ETag, Last-Modified, Link",
    "X-Content-Type-Options": "nosniff",
  };
  if (TOPICS.has(entry.path)) {
    headers.Link = `<${urls.hub}>; rel="hub", <${urls.base}${entry.path}>; rel="self"`;
  }
  return headers;
}
