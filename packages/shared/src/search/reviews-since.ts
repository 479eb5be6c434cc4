import type { ValidationIssue } from "../schemas/errors.ts";
import type { Review } from "../schemas/review.ts";
import { SinceParamsSchema, type SinceResponse } from "../schemas/search.ts";
import { canonical, digest, encodeCursor } from "./cursor.ts";
import { InvalidRequestError } from "./errors.ts";
import { dateRange } from "./match.ts";
import type { SearchIndex } from "./search-index.ts";
import { cursorStart, toIssues } from "./search-reviews.ts";

export interface PreparedSince {
  since: string;
  limit: number | undefined;
  start: number;
  query: string;
  /** The date's fingerprint, limit and start: equal keys give equal answers on the same data. */
  key: string;
}

/** Validates since's date, limit and cursor against the index; throws with every problem. */
export function prepareSince(index: SearchIndex, input: unknown): PreparedSince {
  const parsed = SinceParamsSchema.safeParse(input);
  const issues: ValidationIssue[] = parsed.success ? [] : toIssues(parsed.error.issues);
  const date = parsed.success ? parsed.data.date : undefined;
  const query = date === undefined ? undefined : digest(canonical({ since: date }));
  let start = 0;
  const cursor = (input as { cursor?: unknown } | null)?.cursor;
  if (typeof cursor === "string" && !issues.some((issue) => issue.path === "cursor")) {
    const checked = cursorStart(index, cursor, query);
    if (typeof checked === "number") start = checked;
    else issues.push(checked);
  }
  if (!parsed.success || issues.length > 0 || query === undefined) throw new InvalidRequestError(issues);
  const { limit } = parsed.data;
  return { since: parsed.data.date, limit, start, query, key: `s${query}-${limit ?? "all"}-${start}` };
}

export interface SincePage {
  since: string;
  total: number;
  next_cursor: string | null;
  /** Positions [from, to) of the page: matches are a run of the newest-first positions. */
  from: number;
  to: number;
}

/** Reviews dated on or after the date, newest first; a future date gives an empty list. */
export function runSince(index: SearchIndex, since: PreparedSince): SincePage {
  const [, total] = dateRange(index, since.since);
  const from = Math.min(since.start, total);
  const to = since.limit === undefined ? total : Math.min(total, from + since.limit);
  const next_cursor = to < total ? encodeCursor({ version: index.version, query: since.query, offset: to }) : null;
  return { since: since.since, total, next_cursor, from, to };
}

/** The since answer as objects (MCP tools, tests). */
export function reviewsSince(index: SearchIndex, input: unknown): SinceResponse {
  const page = runSince(index, prepareSince(index, input));
  const reviews: Review[] = [];
  for (let p = page.from; p < page.to; p++) reviews.push(index.review(p));
  return { since: page.since, total: page.total, count: reviews.length, next_cursor: page.next_cursor, reviews };
}
