/**
 * The search service in packages/shared/src/search/, in process, on tests/fixtures/data-search: 26 hand-written
 * reviews with accented and mixed-case words (café, Müller, naïve, résumé, one title in decomposed
 * form), both "Chris M." and "Chris A.", several reviews on one date, every rating, an owner reply
 * and an author name that must not be searched.
 *
 * The index and the helpers the search tests share.
 */

import type { ValidationIssue } from "@riverbend/shared/schemas/errors.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { type SearchResponse, SearchResponseSchema, type SearchSort } from "@riverbend/shared/schemas/search.ts";
import { InvalidRequestError } from "@riverbend/shared/search/errors.ts";
import { searchFromQuery } from "@riverbend/shared/search/read-queries.ts";
import { buildSearchIndex, type SearchIndex } from "@riverbend/shared/search/search-index.ts";
import { runSearch, searchResponse, searchReviews } from "@riverbend/shared/search/search-reviews.ts";
import { expect } from "vitest";
import { loadDataset } from "../../src/data/load-dataset.ts";
import { buildReviewsDocument } from "../../src/reviews-document/reviews-document.ts";

export const dataset = loadDataset("tests/fixtures/data-search", { today: "2026-11-01" });
const document = buildReviewsDocument(dataset);
export const index = buildSearchIndex(document, "v1");
/** The same reviews as another data version: its cursors must not work on `index`. */
export const otherVersion = buildSearchIndex(document, "v2");
export const REVIEWS: readonly Review[] = document.reviews;
export const SORTS: readonly SearchSort[] = ["newest", "oldest", "highest", "lowest"];

export const ids = (response: { reviews: readonly Review[] }) => response.reviews.map((review) => review.id);
export const search = (args: Record<string, unknown>, on: SearchIndex = index) => searchReviews(on, args);
export const fromQuery = (query: string, on: SearchIndex = index) =>
  searchResponse(on, runSearch(on, searchFromQuery(on, query)));

/** Runs `fn`, which must throw an InvalidRequestError, and returns its issues. */
export function issuesOf(fn: () => unknown): ValidationIssue[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    const issues = (error as InvalidRequestError).issues;
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) {
      expect(typeof issue.path).toBe("string");
      expect(issue.code).toMatch(/^[a-z_]+$/);
      expect(issue.message.length).toBeGreaterThan(0);
    }
    return issues;
  }
  throw new Error("expected an InvalidRequestError, but the call succeeded");
}

/** Follows next_cursor from the first page to the last; checks each page and returns every id in order. */
export function walk(args: Record<string, unknown>, on: SearchIndex = index): { ids: string[]; pages: number } {
  const limit = (args.limit as number | undefined) ?? 20;
  const seen: string[] = [];
  let cursor: string | undefined;
  let total: number | undefined;
  for (let pages = 1; pages <= 200; pages++) {
    const page: SearchResponse = searchReviews(on, cursor === undefined ? args : { ...args, cursor });
    SearchResponseSchema.parse(page);
    total ??= page.total;
    expect(page.total, "total is the same on every page").toBe(total);
    expect(page.limit).toBe(limit);
    expect(page.count).toBe(page.reviews.length);
    seen.push(...ids(page));
    if (page.next_cursor === null) {
      expect(page.count).toBeLessThanOrEqual(limit);
      expect(seen.length, "all pages together hold every match").toBe(total);
      return { ids: seen, pages };
    }
    expect(page.count, "only the last page is short").toBe(limit);
    cursor = page.next_cursor;
  }
  throw new Error("pagination did not end");
}
