import type { IncomingMessage, ServerResponse } from "node:http";
import { type RateLimitRequestHandler, rateLimit } from "express-rate-limit";
import { ClientWindows } from "./client-windows.ts";

export interface SyncRateLimit {
  /** express-rate-limit's middleware over the shared windows, for Express routes. */
  middleware: RateLimitRequestHandler;
  /**
   * Counts one request of a raw node:http request in the same windows and sets the same headers
   * as the middleware; answers 429 itself (through `tooMany`) and returns false past the limit.
   */
  consume(req: IncomingMessage, res: ServerResponse): boolean;
}

const TOO_MANY = 429;

/**
 * A per-client limit of `limit` requests a window, with IETF draft-7 `RateLimit` and
 * `RateLimit-Policy` headers (and `Retry-After` on a 429), counted by express-rate-limit for the
 * Express routes and synchronously for raw requests. `consume` writes what the middleware writes
 * with these options (tests/fast-path-mcp.test.ts compares the two byte for byte, 429s included);
 * the library's other options (legacy headers, skipping, other drafts) are not offered here.
 */
export function syncRateLimit(options: {
  windowMs: number;
  limit: number;
  key: (req: IncomingMessage) => string;
  tooMany: (res: ServerResponse, statusCode: number) => void;
}): SyncRateLimit {
  const { windowMs, limit, key, tooMany } = options;
  const windows = new ClientWindows();
  const middleware = rateLimit({
    windowMs,
    limit,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    store: windows,
    keyGenerator: key,
    // The check that no request is counted twice costs a WeakMap entry per request; the Express
    // routes and `consume` count each request once (a request is counted by whichever answers it).
    validate: { singleCount: false },
    statusCode: TOO_MANY,
    handler: (_req, res, _next, used) => tooMany(res, used.statusCode),
  });
  const policy = `${limit};w=${Math.ceil(windowMs / 1000)}`;
  return {
    middleware,
    consume(req, res) {
      const { totalHits, resetTime } = windows.increment(key(req));
      const resetSeconds = Math.max(0, Math.ceil(((resetTime as Date).getTime() - Date.now()) / 1000));
      res.setHeader("RateLimit-Policy", policy);
      res.setHeader("RateLimit", `limit=${limit}, remaining=${Math.max(limit - totalHits, 0)}, reset=${resetSeconds}`);
      if (totalHits <= limit) return true;
      res.setHeader("Retry-After", String(resetSeconds));
      tooMany(res, TOO_MANY);
      return false;
    },
  };
}
