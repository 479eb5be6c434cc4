import type { ServerResponse } from "node:http";
import { HubRequestError } from "@riverbend/shared/websub/hub-request.ts";
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { type ErrorAnswer, errorAnswer } from "./error-response.ts";
import { notFound } from "./errors.ts";

/** Final route: anything no route answered is a JSON 404. */
export const unmatchedRoute: RequestHandler = (req, _res, next) => next(notFound(req.path));

/**
 * Writes a mapped error as JSON. `cors`: public reads answer CORS requests, errors included, so
 * browsers can read the reason.
 */
function writeErrorAnswer(res: ServerResponse, answer: ErrorAnswer, cors: boolean): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader("Cache-Control", "no-store");
  if (cors && !res.hasHeader("Access-Control-Allow-Origin")) res.setHeader("Access-Control-Allow-Origin", "*");
  const bytes = Buffer.from(JSON.stringify(answer.body));
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", bytes.length);
  // Node sends no body for HEAD by itself.
  res.end(bytes);
}

/** The one place Express hands errors to; the mapping itself is errorAnswer. */
export const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (error: unknown, req, res, _next) => {
    if (error instanceof HubRequestError) {
      // WebSub asks for plain-text reasons.
      res.status(error.status).setHeader("Cache-Control", "no-store");
      if (error.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(error.retryAfterSeconds));
      res.type("text/plain").send(error.message);
      return;
    }
    const answer = errorAnswer(error);
    if (answer.status >= 500) logger.error({ err: error, req: { id: res.locals.requestId } }, "request failed");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    writeErrorAnswer(res, answer, !req.path.startsWith("/mcp"));
  };
