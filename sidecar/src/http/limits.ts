import type { RequestHandler } from "express";
import { HttpError } from "./errors.ts";

/** Refuses request bodies larger than `maxBytes` before anything reads them. */
export function limitBodySize(maxBytes: number): RequestHandler {
  return (req, _res, next) => {
    const length = Number(req.headers["content-length"] ?? 0);
    if (length > maxBytes) {
      next(new HttpError(413, "payload_too_large", `Request bodies are limited to ${maxBytes} bytes.`));
      return;
    }
    next();
  };
}
