import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { requestId } from "../http/request-id.ts";

/**
 * The request id (the client's X-Request-Id or a fresh one, echoed in the response) and one access-log
 * line per request, written with one `logger.info` call once the response is finished or aborted.
 * pino-http's per-request child logger and its full request and response serialisers (every header)
 * cost a third of a cached answer's CPU; the line keeps pino-http's shape without the headers.
 */
export function accessLog(logger: Logger): RequestHandler {
  const enabled = logger.isLevelEnabled("info");
  return (req, res, next) => {
    const id = requestId(req);
    res.locals.requestId = id;
    res.setHeader("X-Request-Id", id);
    if (enabled) {
      const started = performance.now();
      res.once("close", () => {
        const responseTime = Math.round((performance.now() - started) * 1000) / 1000;
        const line = {
          req: { id, method: req.method, url: req.originalUrl },
          res: { statusCode: res.statusCode },
          responseTime,
        };
        logger.info(line, "request completed");
      });
    }
    next();
  };
}
