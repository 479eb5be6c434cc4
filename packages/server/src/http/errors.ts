import type { ValidationIssue } from "@riverbend/shared/schemas/errors.ts";

/** An error that knows its HTTP status; the error handler is the only place that turns it into a response. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly options: { issues?: ValidationIssue[]; headers?: Record<string, string> };

  constructor(
    status: number,
    code: string,
    message: string,
    options: { issues?: ValidationIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.options = options;
    this.name = "HttpError";
  }
}

export const notFound = (path: string) => new HttpError(404, "not_found", `No resource at ${path}.`);

export const methodNotAllowed = (method: string, allow: readonly string[]) =>
  new HttpError(405, "method_not_allowed", `${method} is not allowed here; use ${allow.join(" or ")}.`, {
    headers: { Allow: allow.join(", ") },
  });
