import type { ErrorRequestHandler, RequestHandler } from "express";
import { HubRequestError } from "../../../src/hub/hub-request.ts";
import type { ErrorResponse } from "../../../src/schemas/errors.ts";
import { InvalidRequestError } from "../../../src/search/errors.ts";
import { HttpError, notFound } from "./errors.ts";

/** Final route: anything no route answered is a JSON 404. */
export const unmatchedRoute: RequestHandler = (req, _res, next) => next(notFound(req.path));

/**
 * The one place that maps errors to responses. Known errors keep their status and message; parser
 * errors from Express keep their 4xx status; anything else is a 500 whose details stay in the log.
 */
export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  let status = 500;
  let body: ErrorResponse = { error: "internal_error", message: "The server failed to answer this request." };
  if (error instanceof HttpError) {
    status = error.status;
    body = {
      error: error.code,
      message: error.message,
      ...(error.options.issues ? { issues: error.options.issues } : {}),
    };
    for (const [name, value] of Object.entries(error.options.headers ?? {})) res.setHeader(name, value);
  } else if (error instanceof InvalidRequestError) {
    status = 400;
    const count = error.issues.length === 1 ? "1 problem" : `${error.issues.length} problems`;
    body = {
      error: "invalid_request",
      message: `Invalid parameters (${count}): ${error.message}`,
      issues: error.issues,
    };
  } else if (isClientError(error)) {
    status = error.status;
    body = { error: "bad_request", message: error.expose ? error.message : "The request could not be read." };
  }
  if (error instanceof HubRequestError) {
    // WebSub asks for plain-text reasons.
    res.status(error.status).setHeader("Cache-Control", "no-store");
    res.type("text/plain").send(error.message);
    return;
  }
  if (status >= 500) req.log?.error({ err: error }, "request failed");
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).setHeader("Cache-Control", "no-store");
  // Public reads answer CORS requests, errors included, so browsers can read the reason.
  if (!res.hasHeader("Access-Control-Allow-Origin") && !req.path.startsWith("/mcp")) {
    res.setHeader("Access-Control-Allow-Origin", "*");
  }
  res.json(body);
};

function isClientError(error: unknown): error is { status: number; expose?: boolean; message: string } {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}
