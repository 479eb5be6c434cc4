import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip, gzipSync } from "node:zlib";
import type { JsonChunks } from "@riverbend/shared/search/response-body.ts";
import type { Request, Response } from "express";
import type { LoadedBundle } from "../bundle/loaded-bundle.ts";
import { isNotModified } from "../http/conditional.ts";
import { type CachedAnswer, LARGEST_CACHED_ANSWER } from "./answer-cache.ts";

export const READ_CACHE_CONTROL = "public, max-age=60, must-revalidate";
export const READ_EXPOSED_HEADERS = ["ETag", "Last-Modified"];
/** Below this size gzip saves less than it costs. */
const COMPRESSION_THRESHOLD = 1024;

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

const JSON_TYPE = "application/json; charset=utf-8";

/** A validated read: its strong tag (known before its body) and how to build the body. */
export interface PreparedRead {
  etag: string;
  build: () => JsonChunks;
}

// What is sent depends on whether the client takes gzip, so the representation's strong tag does too.
const gzipTag = (etag: string) => `${etag.slice(0, -1)}-gz"`;
const takesGzip = (req: Request) =>
  req.headers["accept-encoding"] !== undefined && req.acceptsEncodings("gzip", "identity") === "gzip";

function notModified(headers: IncomingHttpHeaders, etag: string, lastModified: string | undefined): boolean {
  return (
    (headers["if-none-match"] !== undefined || headers["if-modified-since"] !== undefined) &&
    isNotModified(headers, { etag, lastModified })
  );
}

function cachedAnswer(loaded: LoadedBundle, etag: string, body: Buffer): CachedAnswer {
  const notModified = { ...loaded.readHeaders, ETag: etag };
  return {
    etag,
    notModified,
    headers: { ...notModified, "Content-Type": JSON_TYPE, "Content-Length": body.length },
    body,
  };
}

/** The gzip form of a cached answer, made on first demand and kept (the cache then counts it). */
function withGzip(loaded: LoadedBundle, key: string, answer: CachedAnswer) {
  if (!answer.gzip || !answer.gzipHeaders) {
    answer.gzip = gzipSync(answer.body);
    const tag = gzipTag(answer.etag);
    answer.gzipHeaders = {
      ...loaded.readHeaders,
      ETag: tag,
      "Content-Type": JSON_TYPE,
      "Content-Encoding": "gzip",
      "Content-Length": answer.gzip.length,
    };
    loaded.answers.set(key, answer);
  }
  return { body: answer.gzip, headers: answer.gzipHeaders };
}

/**
 * Answers a read by its request target (`key`). A cached answer is sent with its header set as
 * computed once; otherwise `prepare` validates the request (throwing InvalidRequestError) and names
 * its strong tag from the data version and the canonical query, so a matching precondition is a 304
 * before any search, and the body is built, kept when asked before and not too large, and sent. gzip
 * is made once per kept answer; an answer not kept is compressed as it streams.
 */
export function sendAnswer(
  req: Request,
  res: Response,
  loaded: LoadedBundle,
  key: string,
  prepare: () => PreparedRead,
): void {
  const gzip = takesGzip(req);
  let answer = loaded.answers.get(key);
  // A target asked before has its tag remembered: its revalidations skip validation and search.
  const seen = answer ? undefined : loaded.askedOnce.get(key);
  const prepared = answer || seen !== undefined ? undefined : prepare();
  const etag = answer?.etag ?? seen ?? (prepared as PreparedRead).etag;
  const tag = gzip ? gzipTag(etag) : etag;
  if (notModified(req.headers, tag, loaded.lastModified)) {
    if (!answer && seen === undefined) loaded.askedOnce.set(key, etag);
    const headers = answer && !gzip ? answer.notModified : { ...loaded.readHeaders, ETag: tag };
    res.writeHead(304, headers).end();
    return;
  }
  if (!answer) {
    const built = (prepared ?? prepare()).build();
    // Kept from its second request on (see AskedOnce), and never when too large to keep.
    const small = built.length <= LARGEST_CACHED_ANSWER;
    if (!small || seen === undefined) {
      if (small) loaded.askedOnce.set(key, etag);
      sendUnkept(res, loaded, built, tag, gzip);
      return;
    }
    loaded.askedOnce.delete(key);
    answer = cachedAnswer(loaded, etag, Buffer.concat(built.chunks, built.length));
    loaded.answers.set(key, answer);
  }
  if (gzip && answer.body.length >= COMPRESSION_THRESHOLD) {
    const compressed = withGzip(loaded, key, answer);
    res.writeHead(200, compressed.headers).end(compressed.body);
    return;
  }
  res.writeHead(200, gzip ? { ...answer.headers, ETag: tag } : answer.headers).end(answer.body);
}

/** An answer not kept (asked once, or too large): its pieces written as they are, or gzipped as they stream. */
function sendUnkept(res: Response, loaded: LoadedBundle, body: JsonChunks, tag: string, gzip: boolean): void {
  if (!gzip || body.length < COMPRESSION_THRESHOLD) {
    res.writeHead(200, { ...loaded.readHeaders, ETag: tag, "Content-Type": JSON_TYPE, "Content-Length": body.length });
    res.cork();
    for (const chunk of body.chunks) res.write(chunk);
    res.end();
    res.uncork();
    return;
  }
  res.writeHead(200, { ...loaded.readHeaders, ETag: tag, "Content-Type": JSON_TYPE, "Content-Encoding": "gzip" });
  pipeline(Readable.from(body.chunks), createGzip(), res).catch(() => res.destroy());
}
