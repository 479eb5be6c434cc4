import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isNotModified } from "./conditional.ts";

export interface JsonBody {
  body: Buffer;
  etag: string;
}

/** Serializes once and derives the strong ETag from the exact bytes sent. */
export function jsonBody(value: unknown): JsonBody {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"` };
}

/**
 * Sends JSON with validators, answering a matching If-None-Match / If-Modified-Since with 304.
 * Plain node:http, so the Express routes and the fast path in front of Express share it; `headers`
 * are added to the answer (the fast path's request id, CORS and Link), all in one writeHead.
 */
export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  { body, etag }: JsonBody,
  options: { lastModified: string | undefined; cacheControl: string; headers?: Record<string, string> },
): void {
  const headers: Record<string, string | number> = { ...options.headers, ETag: etag };
  if (options.lastModified) headers["Last-Modified"] = options.lastModified;
  headers["Cache-Control"] = options.cacheControl;
  // The compression middleware varies every compressible answer on Accept-Encoding; saying so here
  // too keeps the fast path's answers identical (vary() does not add it twice). A 304 carries it
  // too, as it carries every header a cache keys on (RFC 9110, 15.4.5).
  headers.Vary = "Accept-Encoding";
  if (isNotModified(req.headers, { etag, lastModified: options.lastModified })) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers["Content-Type"] = "application/json; charset=utf-8";
  headers["Content-Length"] = body.length;
  res.writeHead(200, headers);
  res.end(body);
}
