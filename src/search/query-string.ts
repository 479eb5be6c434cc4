import { closest } from "../data/format-issue.ts";
import type { ValidationIssue } from "../schemas/errors.ts";
import { SearchParamsSchema, type SearchResponse } from "../schemas/search.ts";
import { InvalidRequestError } from "./errors.ts";
import type { ReviewIndex } from "./review-index.ts";
import { searchReviews } from "./search-reviews.ts";

const KNOWN = Object.keys(SearchParamsSchema.shape);
const NUMERIC = new Set(["rating", "min_rating", "limit"]);
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * Decodes a query string into typed search arguments. Unknown, repeated and empty parameters are
 * errors: a typo such as `min_ratting` must not silently return everything.
 */
export function decodeSearchQuery(query: URLSearchParams): {
  args: Record<string, unknown>;
  issues: ValidationIssue[];
} {
  const args: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const [name, value] of query) {
    if (!KNOWN.includes(name)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const suggestion = name ? closest(name, KNOWN) : undefined;
      issues.push({
        path: name || "(empty name)",
        code: "unrecognized",
        message: suggestion
          ? `is not a parameter; did you mean ${suggestion}?`
          : `is not a parameter; use ${KNOWN.join(", ")}`,
      });
      continue;
    }
    if (seen.has(name)) {
      if (!issues.some((i) => i.path === name && i.code === "duplicate")) {
        issues.push({ path: name, code: "duplicate", message: "is given more than once; give it once" });
      }
      delete args[name];
      continue;
    }
    seen.add(name);
    if (value === "") {
      issues.push({ path: name, code: "empty", message: "is empty; give a value or leave the parameter out" });
      continue;
    }
    args[name] = NUMERIC.has(name) && NUMBER.test(value) ? Number(value) : value;
  }
  return { args, issues };
}

/** GET /api/reviews/search: decoding problems and validation problems are reported together. */
export function searchReviewsFromQuery(index: ReviewIndex, query: URLSearchParams): SearchResponse {
  const { args, issues } = decodeSearchQuery(query);
  let response: SearchResponse | undefined;
  try {
    response = searchReviews(index, args);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    const reported = new Set(issues.map((issue) => issue.path));
    issues.push(...error.issues.filter((issue) => !reported.has(issue.path)));
  }
  if (issues.length > 0 || !response) throw new InvalidRequestError(issues);
  return response;
}
