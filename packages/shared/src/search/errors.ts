import { MAX_LISTED_ISSUES, type ValidationIssue } from "../schemas/errors.ts";

/**
 * A path can be what a client sent (an unknown parameter's name): kept short in answers. Messages
 * echo client values only clipped where they are made; their bound is a backstop that keeps the lists
 * of valid values they name.
 */
const MAX_PATH = 120;
const MAX_MESSAGE = 2_000;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

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
    const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => ({
      path: clip(issue.path, MAX_PATH),
      code: issue.code,
      message: clip(issue.message, MAX_MESSAGE),
    }));
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
