import { IsoDateSchema } from "../schemas/common.ts";
import type { ValidationIssue } from "../schemas/errors.ts";
import type { Review } from "../schemas/review.ts";
import { type SearchParams, SearchParamsSchema, type SearchResponse } from "../schemas/search.ts";
import { decodeCursor, encodeCursor, queryFingerprint } from "./cursor.ts";
import { InvalidRequestError } from "./errors.ts";
import { foldText } from "./fold.ts";
import type { ReviewIndex } from "./review-index.ts";

type ZodIssueLike = { path: readonly PropertyKey[]; code: string; message: string; keys?: readonly string[] };

/** zod issues in the service's own issue shape: one entry per problem, path as a parameter name. */
export function toIssues(issues: readonly ZodIssueLike[]): ValidationIssue[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys" && issue.keys) {
      return issue.keys.map((key) => ({
        path: path ? `${path}.${key}` : key,
        code: "unrecognized",
        message: "is not a parameter",
      }));
    }
    return [{ path: path || "(parameters)", code: issue.code, message: issue.message }];
  });
}

const fields = (input: unknown): Record<string, unknown> =>
  input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};

/**
 * Validates raw arguments (typed, as the MCP tool receives them) into search parameters. Rules that
 * relate two parameters are checked on whatever parts are valid, so every problem is reported at once.
 */
export function parseSearchParams(input: unknown): SearchParams {
  const result = SearchParamsSchema.safeParse(input);
  const issues: ValidationIssue[] = result.success ? [] : toIssues(result.error.issues);
  const raw = fields(input);
  const since = IsoDateSchema.safeParse(raw.since);
  const until = IsoDateSchema.safeParse(raw.until);
  if (since.success && until.success && since.data > until.data) {
    issues.push({ path: "since", code: "invalid_range", message: `must not be after until (${until.data})` });
  }
  if (issues.length > 0 || !result.success) throw new InvalidRequestError(issues);
  return result.data;
}

/** Why a cursor cannot continue this query, or undefined; `params` is absent when they are invalid. */
function cursorProblem(index: ReviewIndex, cursor: string, params: SearchParams | undefined) {
  const state = decodeCursor(cursor);
  if (typeof state === "string") return { problem: state };
  if (state.version !== index.version) {
    return { problem: "was issued for another version of the data; start again without a cursor" };
  }
  if (params && state.query !== queryFingerprint(params)) {
    return { problem: "belongs to a different query; keep the same filters and sort, or start without a cursor" };
  }
  return { offset: state.offset };
}

type Test = (position: number) => boolean;

function filters(index: ReviewIndex, params: SearchParams): Test[] | undefined {
  const { reviews } = index;
  const tests: Test[] = [];
  const review = (p: number) => reviews[p] as Review;
  if (params.rating !== undefined) tests.push((p) => review(p).rating === params.rating);
  if (params.min_rating !== undefined) tests.push((p) => review(p).rating >= (params.min_rating ?? 0));
  if (params.since !== undefined) tests.push((p) => review(p).date >= (params.since ?? ""));
  if (params.until !== undefined) tests.push((p) => review(p).date <= (params.until ?? ""));
  if (params.mentions_technician !== undefined) {
    const names = index.technicianKeys.get(foldText(params.mentions_technician.trim())) ?? [];
    const maps = names.map((name) => index.byTechnician.get(name)).filter((m): m is Uint8Array => m !== undefined);
    if (maps.length === 0) return undefined;
    tests.push((p) => maps.some((map) => map[p] === 1));
  }
  if (params.mentions_service !== undefined) {
    const map = index.byService.get(params.mentions_service.trim().toLowerCase());
    if (!map) return undefined;
    tests.push((p) => map[p] === 1);
  }
  if (params.query !== undefined) {
    const needle = foldText(params.query);
    const { folded } = index;
    // The text test goes last: it is the only one that is not a lookup.
    tests.push((p) => (folded[p] as string).includes(needle));
  }
  return tests;
}

/**
 * Searches the indexed reviews: every filter combines with AND, results come in the requested order
 * with cursor pagination. Shared by GET /api/reviews/search and the MCP tool search_reviews.
 */
export function searchReviews(index: ReviewIndex, input: unknown): SearchResponse {
  const issues: ValidationIssue[] = [];
  let params: SearchParams | undefined;
  try {
    params = parseSearchParams(input);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    issues.push(...error.issues);
  }
  let start = 0;
  const cursor = fields(input).cursor;
  if (typeof cursor === "string" && !issues.some((issue) => issue.path === "cursor")) {
    const checked = cursorProblem(index, cursor, params);
    if (checked.problem) issues.push({ path: "cursor", code: "invalid_cursor", message: checked.problem });
    else start = checked.offset ?? 0;
  }
  if (issues.length > 0 || !params) throw new InvalidRequestError(issues);
  const query = queryFingerprint(params);

  const tests = filters(index, params);
  const order = index.orders[params.sort];
  const page: Review[] = [];
  let total = 0;
  let nextOffset: number | undefined;
  if (tests) {
    const count = tests.length;
    // Plain loops: a closure per review (tests.every) cost most of a search's time and allocations.
    candidates: for (let i = 0; i < order.length; i++) {
      const position = order[i] as number;
      for (let t = 0; t < count; t++) if (!(tests[t] as Test)(position)) continue candidates;
      total++;
      if (i < start) continue;
      if (page.length < params.limit) page.push(index.reviews[position] as Review);
      else if (nextOffset === undefined) nextOffset = i;
    }
  }
  return {
    total,
    count: page.length,
    limit: params.limit,
    next_cursor: nextOffset === undefined ? null : encodeCursor({ version: index.version, query, offset: nextOffset }),
    reviews: page,
  };
}
