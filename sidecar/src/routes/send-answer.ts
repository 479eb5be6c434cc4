import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip, gzipSync } from "node:zlib";
import type { Request, Response } from "express";
import type { JsonChunks } from "../../../src/search/response-body.ts";
import type { LoadedBundle } from "../bundle/loaded-bundle.ts";
import { isNotModified } from "../http/conditional.ts";
import { type CachedAnswer, LARGEST_CACHED_ANSWER } from "./answer-cache.ts";

export const READ_CACHE_CONTROL = "public, max-age=60, must-revalidate";
/** Below this size gzip saves less than it costs. */
const COMPRESSION_THRESHOLD = 1024;

export const READ_EXPOSED_HEADERS = ["ETag", "Last-Modified"];

/** The headers every read answer of a build carries, computed once per build. */
export function readHeaders(lastModified: string | undefined): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": READ_EXPOSED_HEADERS.join(","),
    "Cache-Control": READ_CACHE_CONTROL,
    ...(lastModified ? { "Last-Modified": lastModified } : {}),
    // A 304 carries it too, as it carries every header a cache keys on (RFC 9110, 15.4.5).
    Vary: "Accept-Encoding",
  };
}

const concat = (body: JsonChunks) => Buffer.concat(body.chunks, body.length);

function writeChunks(res: Response, chunks: readonly Buffer[]): void {
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.end();
  res.uncork();
}

/**
 * Answers a read whose strong ETag is known before its body: a matching precondition is a 304
 * without searching; otherwise the body comes from the build's answer cache or from `build`. gzip is
 * decided once per cached answer and kept; an answer too large to cache is compressed as it streams.
 */
export function sendAnswer(
  req: Request,
  res: Response,
  loaded: LoadedBundle,
  answer: { key: string; etag: string; build: () => JsonChunks },
): void {
  // What is sent depends on whether the client takes gzip, so the representation's strong tag does too.
  const gzipOk = req.acceptsEncodings("gzip", "identity") === "gzip";
  const etag = gzipOk ? `${answer.etag.slice(0, -1)}-gz"` : answer.etag;
  const headers: Record<string, string | number> = { ...loaded.readHeaders, ETag: etag };
  if (isNotModified(req.headers, { etag, lastModified: loaded.lastModified })) {
    res.writeHead(304, headers).end();
    return;
  }
  let cached: CachedAnswer | undefined = loaded.answers.get(answer.key);
  const body = cached?.body ?? answer.build();
  if (!cached && body.length <= LARGEST_CACHED_ANSWER) {
    cached = { body };
    loaded.answers.set(answer.key, cached);
  }
  headers["Content-Type"] = "application/json; charset=utf-8";
  if (!gzipOk || body.length < COMPRESSION_THRESHOLD) {
    headers["Content-Length"] = body.length;
    res.writeHead(200, headers);
    writeChunks(res, body.chunks);
    return;
  }
  headers["Content-Encoding"] = "gzip";
  if (cached) {
    if (!cached.gzip) {
      cached.gzip = gzipSync(concat(body));
      // Stored again so the cache counts the compressed bytes too.
      loaded.answers.set(answer.key, cached);
    }
    headers["Content-Length"] = cached.gzip.length;
    res.writeHead(200, headers).end(cached.gzip);
    return;
  }
  res.writeHead(200, headers);
  pipeline(Readable.from(body.chunks), createGzip(), res).catch(() => res.destroy());
}
