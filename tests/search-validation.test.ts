/**
 * Parameter validation of searchReviews and its query-string decoder, which must report every
 * problem at once, and reviewsSince.
 */

import { SinceResponseSchema } from "@riverbend/shared/schemas/search.ts";
import { reviewsSince } from "@riverbend/shared/search/reviews-since.ts";
import { describe, expect, it } from "vitest";
import { fromQuery, ids, index, issuesOf, search } from "./support/search-fixture.ts";
import { naiveIds } from "./support/search-reference.ts";

// ---------------------------------------------------------------------------
// Validation and the query-string decoder
// ---------------------------------------------------------------------------

describe("parameter validation", () => {
  it("checks ranges and types of the typed arguments", () => {
    for (const rating of [0, 6, 2.5, -1, "5", null]) expect(issuesOf(() => search({ rating }))[0]?.path).toBe("rating");
    for (const min_rating of [0, 0.99, 5.01, 6, "3", Number.NaN]) {
      expect(issuesOf(() => search({ min_rating }))[0]?.path).toBe("min_rating");
    }
    for (const limit of [0, 101, 2.5, -5, "10"]) expect(issuesOf(() => search({ limit }))[0]?.path).toBe("limit");
    for (const sort of ["random", "NEWEST", "", 1]) expect(issuesOf(() => search({ sort }))[0]?.path).toBe("sort");
    for (const date of ["2025-02-30", "2025-02-29", "2025-13-01", "2025-04-31", "2025-1-01", "yesterday", "20250101"]) {
      expect(issuesOf(() => search({ since: date }))[0]?.path, date).toBe("since");
      expect(issuesOf(() => search({ until: date }))[0]?.path, date).toBe("until");
    }
    expect(issuesOf(() => search({ query: "" }))[0]?.path).toBe("query");
    expect(issuesOf(() => search({ query: "q".repeat(201) }))[0]?.path).toBe("query");
    expect(issuesOf(() => search({ color: "red" }))).toHaveLength(1);
    // Boundaries are accepted.
    for (const args of [
      { rating: 1 },
      { rating: 5 },
      { min_rating: 1 },
      { min_rating: 5 },
      { limit: 1 },
      { limit: 100 },
    ]) {
      expect(() => search(args)).not.toThrow();
    }
    expect(search({ since: "2024-02-29", until: "2024-02-29" }).total).toBe(0);
  });

  it("decodes numbers from the query string and keeps the rest as text", () => {
    expect(fromQuery("rating=5&min_rating=4.5&limit=3").total).toBe(8);
    expect(fromQuery("min_rating=3.5").total).toBe(14);
    expect(fromQuery("limit=100").count).toBe(26);
  });

  it("reports unknown, repeated and empty parameters", () => {
    expect(issuesOf(() => fromQuery("min_ratting=3"))).toEqual([
      { path: "min_ratting", code: "unrecognized", message: expect.stringContaining("min_rating") },
    ]);
    expect(issuesOf(() => fromQuery("rating=5&rating=4"))).toEqual([
      { path: "rating", code: "duplicate", message: expect.any(String) },
    ]);
    expect(issuesOf(() => fromQuery("rating=5&rating=5"))[0]?.code).toBe("duplicate");
    expect(issuesOf(() => fromQuery("query="))).toEqual([
      { path: "query", code: "empty", message: expect.any(String) },
    ]);
    expect(issuesOf(() => fromQuery("sort"))).toEqual([{ path: "sort", code: "empty", message: expect.any(String) }]);
  });

  it("reports every problem at once", () => {
    const issues = issuesOf(() =>
      fromQuery("min_ratting=3&rating=9&rating=2&query=&limit=0&since=2025-02-30&sort=random&until=tomorrow&color=red"),
    );
    expect(issues.map((issue) => issue.path).sort()).toEqual(
      ["color", "limit", "min_ratting", "query", "rating", "since", "sort", "until"].sort(),
    );
    const typed = issuesOf(() => search({ rating: 0, min_rating: 9, limit: 0, sort: "x", since: "2025-02-30" }));
    expect(typed.map((issue) => issue.path).sort()).toEqual(["limit", "min_rating", "rating", "since", "sort"]);
  });

  // A regression test: the since-after-until check once ran only when everything else was valid,
  // so other problems hid it; all problems are reported at once.
  it("reports since after until together with other problems", () => {
    const issues = issuesOf(() => fromQuery("since=2025-05-01&until=2025-01-01&limit=0"));
    expect(issues.map((issue) => issue.path).sort()).toEqual(["limit", "since"]);
  });
  it("reports since after until together with other problems (typed arguments)", () => {
    const issues = issuesOf(() => search({ since: "2025-05-01", until: "2025-01-01", rating: 7 }));
    expect(issues.map((issue) => issue.path).sort()).toEqual(["rating", "since"]);
  });

  // A regression test: the cursor was once decoded only after the other parameters passed, so a
  // malformed cursor was reported one attempt later than the other problems.
  it("reports a malformed cursor together with other problems", () => {
    const issues = issuesOf(() => fromQuery("rating=0&cursor=!!!"));
    expect(issues.map((issue) => issue.path).sort()).toEqual(["cursor", "rating"]);
  });
});

// ---------------------------------------------------------------------------
// reviewsSince
// ---------------------------------------------------------------------------

describe("reviewsSince", () => {
  it("returns reviews dated on or after the date, newest first", () => {
    const response = reviewsSince(index, { date: "2026-07-04" });
    SinceResponseSchema.parse(response);
    expect(response.since).toBe("2026-07-04");
    expect(response.count).toBe(response.reviews.length);
    expect(ids(response)).toEqual([
      "2026-10-31-pat-q",
      "2026-10-31-ona-p",
      "2026-10-31-ned-o",
      "2026-09-09-max-n",
      "2026-07-04-lou-m",
    ]);
    for (const date of ["2020-01-01", "2024-01-15", "2024-01-16", "2025-06-10", "2025-06-11", "2026-10-31"]) {
      expect(ids(reviewsSince(index, { date })), date).toEqual(naiveIds({ since: date }));
    }
    expect(reviewsSince(index, { date: "2020-01-01" }).count).toBe(26);
  });

  it("gives an empty list for a date after the latest review, including future dates", () => {
    for (const date of ["2026-11-01", "2027-01-01", "2999-12-31"]) {
      expect(reviewsSince(index, { date })).toEqual({
        since: date,
        total: 0,
        count: 0,
        next_cursor: null,
        reviews: [],
      });
    }
  });

  it("pages with limit and next_cursor, and without limit returns every match at once", () => {
    const all = ids(reviewsSince(index, { date: "2020-01-01" }));
    expect(all).toHaveLength(26);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const response = reviewsSince(index, { date: "2020-01-01", limit: 7, ...(cursor ? { cursor } : {}) });
      SinceResponseSchema.parse(response);
      expect(response.total).toBe(26);
      seen.push(...ids(response));
      if (response.next_cursor === null) break;
      expect(response.count).toBe(7);
      cursor = response.next_cursor;
    }
    expect(seen).toEqual(all);
    const first = reviewsSince(index, { date: "2020-01-01", limit: 7 });
    const other = issuesOf(() => reviewsSince(index, { date: "2024-01-01", limit: 7, cursor: first.next_cursor }));
    expect(other).toEqual([
      { path: "cursor", code: "invalid_cursor", message: expect.stringContaining("different query") },
    ]);
    for (const limit of [0, 101, 2.5]) {
      expect(issuesOf(() => reviewsSince(index, { date: "2020-01-01", limit }))[0]?.path).toBe("limit");
    }
    expect(issuesOf(() => reviewsSince(index, { date: "2020-01-01", size: 3 }))[0]?.path).toBe("size");
  });

  it("rejects malformed and impossible dates", () => {
    for (const date of [
      "2025-02-30",
      "2025-02-29",
      "2025-13-01",
      "2025-1-01",
      "yesterday",
      "",
      "2025-01-01T00:00:00Z",
    ]) {
      const issues = issuesOf(() => reviewsSince(index, { date }));
      expect(issues, date).toEqual([{ path: "date", code: "invalid_format", message: expect.any(String) }]);
    }
  });
});
