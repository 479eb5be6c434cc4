import { createHash } from "node:crypto";
import type { Request, Response } from "express";
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

/** Sends JSON with validators, answering a matching If-None-Match / If-Modified-Since with 304. */
export function sendJson(
  req: Request,
  res: Response,
  { body, etag }: JsonBody,
  options: { lastModified: string | undefined; cacheControl: string },
): void {
  res.setHeader("ETag", etag);
  if (options.lastModified) res.setHeader("Last-Modified", options.lastModified);
  res.setHeader("Cache-Control", options.cacheControl);
  if (isNotModified(req.headers, { etag, lastModified: options.lastModified })) {
    res.status(304).end();
    return;
  }
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.status(200).end(body);
}
