import { MAX_LISTED_ISSUES, type ValidationIssue } from "../schemas/errors.ts";

/** Paths and messages echo what a client sent (an unknown parameter's name): kept short in answers. */
const MAX_ISSUE_TEXT = 120;
const clip = (text: string) => (text.length > MAX_ISSUE_TEXT ? `${text.slice(0, MAX_ISSUE_TEXT - 1)}…` : text);

/**
 * A request the read services cannot answer because of its parameters. It carries the first
 * MAX_LISTED_ISSUES problems found (paths and messages clipped) and how many more there were, so
 * an answer never grows with what a client sends; the HTTP layer answers it with 400 and the MCP
 * layer with a tool error.
 */
export class InvalidRequestError extends Error {
  readonly issues: ValidationIssue[];
  /** Problems found beyond those listed. */
  readonly unlisted: number;

  constructor(issues: readonly ValidationIssue[], unlisted = 0) {
    const listed = issues
      .slice(0, MAX_LISTED_ISSUES)
      .map((issue) => ({ path: clip(issue.path), code: issue.code, message: clip(issue.message) }));
    const more = unlisted + Math.max(0, issues.length - listed.length);
    const text = listed.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
    super(more > 0 ? `${text}; and ${more} more` : text);
    this.issues = listed;
    this.unlisted = more;
    this.name = "InvalidRequestError";
  }

  /** Every problem found, listed or not. */
  get total(): number {
    return this.issues.length + this.unlisted;
  }
}
