import { fileHeaders } from "@riverbend/shared/registry/static-headers.ts";
import type { ManifestEntry } from "@riverbend/shared/schemas/manifest.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";

/** Response headers of a published file: the CDN's (see fileHeaders) plus the manifest's validators. */
export function headersFor(entry: ManifestEntry, urls: SiteUrls): Record<string, string> {
  return {
    ...fileHeaders(entry.path, entry.content_type, urls),
    ETag: entry.etag,
    "Last-Modified": entry.last_modified,
  };
}
