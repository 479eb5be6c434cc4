import type { RequestHandler } from "express";
import { rateLimit } from "express-rate-limit";
import { HttpError } from "./errors.ts";

/**
 * The read API's per-client limit (search, since, static documents), as the hub and MCP have
 * theirs: requests per minute per client address (X-Forwarded-For counts only behind a configured
 * trusted proxy, Express's `trust proxy`), answered past the limit with 429, Retry-After and the
 * usual JSON error. `perMinute` 0: no limit (undefined).
 */
export function readRateLimit(perMinute: number): RequestHandler | undefined {
  if (perMinute === 0) return undefined;
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    handler: (_req, _res, next, options) =>
      next(
        new HttpError(
          options.statusCode,
          "too_many_requests",
          `More than ${perMinute} requests a minute from this client; retry after the seconds in Retry-After.`,
        ),
      ),
  });
}
