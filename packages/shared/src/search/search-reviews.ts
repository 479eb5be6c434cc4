import { IsoDateSchema } from "../schemas/common.ts";
import type { ValidationIssue } from "../schemas/errors.ts";
import type { Review } from "../schemas/review.ts";
import {
  type SearchFacets,
  type SearchParams,
  SearchParamsSchema,
  type SearchResponse,
  type SearchSort,
} from "../schemas/search.ts";
import { decodeCursor, encodeCursor, queryFingerprint } from "./cursor.ts";
import { InvalidRequestError } from "./errors.ts";
import { facetCounts } from "./facet-counts.ts";
import { resolveArea, resolveService, resolveTechnician, resolveTopic } from "./facet-values.ts";
import { type Filters, matchFilters } from "./match.ts";
import { pagePositions } from "./page.ts";
import type { SearchIndex } from "./search-index.ts";

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
  // On success the dates are already valid; only a failed parse checks them again, to report the range too.
  const raw = fields(input);
  const { since, until } = result.success
    ? result.data
    : { since: IsoDateSchema.safeParse(raw.since).data, until: IsoDateSchema.safeParse(raw.until).data };
  if (since !== undefined && until !== undefined && since > until) {
    issues.push({ path: "since", code: "invalid_range", message: `must not be after until (${until})` });
  }
  if (issues.length > 0 || !result.success) throw new InvalidRequestError(issues);
  return result.data;
}

/** The rank a cursor continues from, or why it cannot continue this query. */
export function cursorStart(index: SearchIndex, cursor: string, query: string | undefined): number | ValidationIssue {
  const problem = (message: string): ValidationIssue => ({ path: "cursor", code: "invalid_cursor", message });
  const state = decodeCursor(cursor);
  if (typeof state === "string") return problem(state);
  if (state.version !== index.version) {
    return problem("was issued for another version of the data; start again without a cursor");
  }
  if (query !== undefined && state.query !== query) {
    return problem("belongs to a different query; keep the same filters and sort, or start without a cursor");
  }
  return state.offset;
}

/** A valid search over one index: what it selects, where its page starts, and its canonical text. */
export interface PreparedSearch {
  filters: Filters;
  sort: SearchSort;
  limit: number;
  start: number;
  /** Whether the answer carries facet counts. */
  facets: boolean;
  /** Fingerprint of the filters and sort (what cursors are bound to). */
  query: string;
  /** The query's fingerprint, limit, start and facets: equal keys give equal answers on the same data. */
  key: string;
}

/** Validates a search against the index (technicians, services, areas, topics, cursor); throws with every problem. */
export function prepareSearch(index: SearchIndex, input: unknown): PreparedSearch {
  const issues: ValidationIssue[] = [];
  let params: SearchParams | undefined;
  try {
    params = parseSearchParams(input);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    issues.push(...error.issues);
  }
  const filters: Filters = {};
  if (params) {
    const { rating, min_rating, since, until, query, mentions_technician, mentions_service, area, topic } = params;
    Object.assign(filters, { rating, min_rating, since, until, query });
    if (mentions_technician !== undefined) {
      const names = resolveTechnician(index, mentions_technician);
      if ("path" in names) issues.push(names);
      else filters.technicians = names;
    }
    if (mentions_service !== undefined) {
      const id = resolveService(index, mentions_service);
      if (typeof id === "string") filters.service = id;
      else issues.push(id);
    }
    if (area !== undefined) {
      const id = resolveArea(index, area);
      if (typeof id === "string") filters.area = id;
      else issues.push(id);
    }
    if (topic !== undefined) {
      const id = resolveTopic(index, topic);
      if (typeof id === "string") filters.topic = id;
      else issues.push(id);
    }
  }
  const query = params ? queryFingerprint(params) : undefined;
  let start = 0;
  const cursor = fields(input).cursor;
  if (typeof cursor === "string" && !issues.some((issue) => issue.path === "cursor")) {
    const checked = cursorStart(index, cursor, query);
    if (typeof checked === "number") start = checked;
    else issues.push(checked);
  }
  if (issues.length > 0 || !params || query === undefined) throw new InvalidRequestError(issues);
  const { limit, sort } = params;
  const facets = params.facets === true;
  return { filters, sort, limit, start, facets, query, key: `q${query}-${limit}-${start}${facets ? "-f" : ""}` };
}

/** One page of a search: positions of its reviews in order, and the envelope's figures. */
export interface SearchPage {
  total: number;
  limit: number;
  next_cursor: string | null;
  positions: number[];
  facets?: SearchFacets;
}

/** Runs a prepared search: the page's positions and the figures of the envelope. */
export function runSearch(index: SearchIndex, search: PreparedSearch): SearchPage {
  const matches = matchFilters(index, search.filters);
  const { total } = matches;
  const positions = pagePositions(index, matches, search.sort, search.start, search.limit);
  const end = search.start + positions.length;
  const next_cursor = end < total ? encodeCursor({ version: index.version, query: search.query, offset: end }) : null;
  // After the page is taken: counting evaluates the filters again, reusing the buffers `matches` lives in.
  const facets = search.facets ? facetCounts(index, search.filters) : undefined;
  return { total, limit: search.limit, next_cursor, positions, ...(facets && { facets }) };
}

/**
 * The strong ETag of an answer: the data version and the prepared request's key (its query's
 * fingerprint, already computed for cursors, its limit and start) fix its bytes; no second digest.
 */
export const answerTag = (index: SearchIndex, key: string): string => `"${index.version}-${key}"`;

/**
 * Searches the indexed reviews: every filter combines with AND, results come in the requested order
 * with cursor pagination. Shared by GET /api/reviews/search and the MCP tool search_reviews.
 */
export function searchReviews(index: SearchIndex, input: unknown): SearchResponse {
  return searchResponse(index, runSearch(index, prepareSearch(index, input)));
}

/** A page as the response object (the MCP tool's structured content). */
export function searchResponse(index: SearchIndex, page: SearchPage): SearchResponse {
  const reviews: Review[] = page.positions.map((p) => index.review(p));
  const { total, limit, next_cursor, facets } = page;
  return { total, count: reviews.length, limit, next_cursor, reviews, ...(facets && { facets }) };
}
