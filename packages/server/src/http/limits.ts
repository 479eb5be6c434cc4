import type { RequestHandler } from "express";
import { HttpError } from "./errors.ts";

/**
 * Refuses request bodies larger than `maxBytes`: by Content-Length before anything reads them, and
 * for chunked bodies (no Content-Length) by counting bytes as they arrive. No route behind this
 * reads bodies, so a body is drained before the request moves on.
 */
export function limitBodySize(maxBytes: number, readersOwnBodies: readonly string[] = []): RequestHandler {
  const tooLarge = () => new HttpError(413, "payload_too_large", `Request bodies are limited to ${maxBytes} bytes.`);
  const exempt = new Set(readersOwnBodies);
  return (req, _res, next) => {
    const length = req.headers["content-length"];
    if ((length === undefined && req.headers["transfer-encoding"] === undefined) || exempt.has(req.path)) {
      next();
      return;
    }
    if (length !== undefined) {
      next(Number(length) > maxBytes ? tooLarge() : undefined);
      return;
    }
    let size = 0;
    let settled = false;
    const settle = (error?: HttpError) => {
      if (settled) return;
      settled = true;
      next(error);
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) settle(tooLarge());
    });
    req.on("end", () => settle());
    req.on("error", () => settle(tooLarge()));
  };
}
