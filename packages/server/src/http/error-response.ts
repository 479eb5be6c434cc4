import type { ErrorResponse } from "@riverbend/shared/schemas/errors.ts";
import { InvalidRequestError } from "@riverbend/shared/search/errors.ts";
import { HttpError } from "./errors.ts";

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: ErrorResponse;
}

function isClientError(error: unknown): error is { status: number; expose?: boolean; message: string } {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

/**
 * The one mapping from an error to a JSON error response: known errors keep their status and
 * message, parser errors keep their 4xx status, anything else is a 500 without details.
 */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof HttpError) {
    const body: ErrorResponse = { error: error.code, message: error.message };
    if (error.options.issues) body.issues = error.options.issues;
    return { status: error.status, headers: error.options.headers ?? {}, body };
  }
  if (error instanceof InvalidRequestError) {
    const count = error.total === 1 ? "1 problem" : `${error.total} problems`;
    const message = `Invalid parameters (${count}): ${error.message}`;
    const body: ErrorResponse = { error: "invalid_request", message, issues: error.issues };
    if (error.unlisted > 0) body.more_issues = error.unlisted;
    return { status: 400, headers: {}, body };
  }
  if (isClientError(error)) {
    const message = error.expose ? error.message : "The request could not be read.";
    return { status: error.status, headers: {}, body: { error: "bad_request", message } };
  }
  return {
    status: 500,
    headers: {},
    body: { error: "internal_error", message: "The server failed to answer this request." },
  };
}
