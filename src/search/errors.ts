import type { ValidationIssue } from "../schemas/errors.ts";

/**
 * A request the read services cannot answer because of its parameters. It carries every problem
 * found; the HTTP layer answers it with 400 and the MCP layer with a tool error.
 */
export class InvalidRequestError extends Error {
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[]) {
    super(issues.map((issue) => `${issue.path}: ${issue.message}`).join("; "));
    this.issues = issues;
    this.name = "InvalidRequestError";
  }
}
