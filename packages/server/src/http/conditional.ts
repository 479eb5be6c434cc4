import type { IncomingHttpHeaders } from "node:http";
import fresh from "fresh";

/**
 * RFC 9110 conditional GET: If-None-Match (lists, `*`, weak comparison) takes precedence over
 * If-Modified-Since. Only the two precondition headers are passed on: `fresh` alone would treat a
 * request's `Cache-Control: no-cache` (which fetch() adds to every conditional request) as "always
 * stale", but that directive is for caches, not for an origin evaluating preconditions.
 */
export function isNotModified(
  request: IncomingHttpHeaders,
  validators: { etag: string; lastModified?: string | undefined },
): boolean {
  const preconditions: Record<string, string | undefined> = {
    "if-none-match": request["if-none-match"],
    "if-modified-since": request["if-modified-since"],
  };
  return fresh(preconditions, { etag: validators.etag, "last-modified": validators.lastModified });
}
