/**
 * The sort orders of searchReviews, with their tie-breaks, and paging through them with cursors:
 * every page in turn, and cursors that belong to another query or another version of the data.
 */

import { buildSearchIndex } from "@riverbend/shared/search/search-index.ts";
import { describe, expect, it } from "vitest";
import { buildReviewsDocument } from "../src/reviews-document/reviews-document.ts";
import {
  dataset,
  fromQuery,
  ids,
  issuesOf,
  otherVersion,
  REVIEWS,
  SORTS,
  search,
  walk,
} from "./support/search-fixture.ts";
import { naiveIds } from "./support/search-reference.ts";

// ---------------------------------------------------------------------------
// Sorting and ties
// ---------------------------------------------------------------------------

describe("searchReviews sort orders", () => {
  const sameDay = { since: "2025-06-10", until: "2025-06-10" };

  it("breaks ties among reviews of one date by id, newest first", () => {
    expect(ids(search({ ...sameDay }))).toEqual([
      "2025-06-10-dev-e",
      "2025-06-10-carla-d",
      "2025-06-10-bob-c",
      "2025-06-10-alice-b",
    ]);
    expect(ids(search({ ...sameDay, sort: "oldest" }))).toEqual([
      "2025-06-10-alice-b",
      "2025-06-10-bob-c",
      "2025-06-10-carla-d",
      "2025-06-10-dev-e",
    ]);
    // alice-b and bob-c are both 5 stars on the same date: the id breaks the tie, as for newest.
    expect(ids(search({ ...sameDay, sort: "highest" }))).toEqual([
      "2025-06-10-bob-c",
      "2025-06-10-alice-b",
      "2025-06-10-carla-d",
      "2025-06-10-dev-e",
    ]);
    expect(ids(search({ ...sameDay, sort: "lowest" }))).toEqual([
      "2025-06-10-dev-e",
      "2025-06-10-carla-d",
      "2025-06-10-bob-c",
      "2025-06-10-alice-b",
    ]);
    // ned-o and ona-p: 2 stars each, same date.
    const halloween = { since: "2026-10-31" };
    expect(ids(search({ ...halloween, sort: "highest" }))).toEqual([
      "2026-10-31-pat-q",
      "2026-10-31-ona-p",
      "2026-10-31-ned-o",
    ]);
    expect(ids(search({ ...halloween, sort: "lowest" }))).toEqual([
      "2026-10-31-ona-p",
      "2026-10-31-ned-o",
      "2026-10-31-pat-q",
    ]);
  });

  it("breaks rating ties across dates newest first", () => {
    expect(ids(search({ rating: 5, sort: "highest" }))).toEqual([
      "2026-10-31-pat-q",
      "2026-07-04-lou-m",
      "2025-09-01-fay-g",
      "2025-06-10-bob-c",
      "2025-06-10-alice-b",
      "2024-12-24-joy-l",
      "2024-08-08-ivy-n",
      "2024-01-15-anna-k",
    ]);
    expect(ids(search({ rating: 5, sort: "lowest" }))).toEqual(ids(search({ rating: 5, sort: "highest" })));
    const lowest = ids(search({ sort: "lowest", limit: 100 }));
    expect(lowest.slice(0, 3)).toEqual(["2026-04-01-jon-k", "2025-06-10-dev-e", "2024-06-18-gus-t"]);
  });

  it("every sort is a total order that agrees with the reference", () => {
    for (const sort of SORTS) {
      const got = ids(search({ sort, limit: 100 }));
      expect(got, sort).toEqual(naiveIds({ sort }));
      expect(new Set(got).size).toBe(26);
    }
    expect(ids(search({ sort: "oldest", limit: 100 }))).toEqual(REVIEWS.map((r) => r.id).reverse());
  });
});

// ---------------------------------------------------------------------------
// Pagination and cursors
// ---------------------------------------------------------------------------

describe("searchReviews pagination", () => {
  const FILTERS: Record<string, unknown>[] = [
    {},
    { mentions_technician: "chris" },
    { min_rating: 3 },
    { query: "the" },
    { since: "2025-01-01", mentions_service: "faucet-fixture" },
    { rating: 2 },
  ];

  it("walks every page without gaps or duplicates, for several page sizes, sorts and filters", () => {
    for (const filter of FILTERS) {
      for (const sort of SORTS) {
        const expected = ids(search({ ...filter, sort, limit: 100 }));
        expect(expected, "unpaginated").toEqual(naiveIds({ ...filter, sort }));
        for (const limit of [1, 2, 3, 4, 5, 7, 13, 25, 26, 27, 100]) {
          const label = JSON.stringify({ ...filter, sort, limit });
          const { ids: walked, pages } = walk({ ...filter, sort, limit });
          expect(walked, label).toEqual(expected);
          expect(new Set(walked).size, label).toBe(walked.length);
          expect(pages, label).toBe(Math.max(1, Math.ceil(expected.length / limit)));
        }
      }
    }
  });

  it("gives the same cursor for the same page, and accepts a different limit on the next page", () => {
    const a = search({ sort: "highest", limit: 5 });
    const b = search({ sort: "highest", limit: 5 });
    expect(a.next_cursor).toBe(b.next_cursor);
    // The cursor names a place in the order, so the next page may ask for another size.
    const next = search({ sort: "highest", limit: 7, cursor: a.next_cursor });
    expect(ids(next)).toEqual(naiveIds({ sort: "highest" }).slice(5, 12));
    // An index built again from the same data (as after reloading an identical build) accepts it.
    const rebuilt = buildSearchIndex(buildReviewsDocument(dataset), "v1");
    expect(ids(search({ sort: "highest", limit: 5, cursor: a.next_cursor }, rebuilt))).toEqual(
      naiveIds({ sort: "highest" }).slice(5, 10),
    );
  });

  it("works through the query-string decoder too", () => {
    const first = fromQuery("mentions_technician=chris&limit=3&sort=oldest");
    expect(first.total).toBe(7);
    const second = fromQuery(`mentions_technician=chris&limit=3&sort=oldest&cursor=${first.next_cursor}`);
    const third = fromQuery(`mentions_technician=chris&limit=3&sort=oldest&cursor=${second.next_cursor}`);
    expect(third.next_cursor).toBeNull();
    expect([...ids(first), ...ids(second), ...ids(third)]).toEqual(
      naiveIds({ mentions_technician: "chris", sort: "oldest" }),
    );
  });

  it("rejects a malformed cursor", () => {
    const issued = search({ limit: 2 }).next_cursor as string;
    const forged = (text: string) => Buffer.from(text).toString("base64url");
    for (const cursor of [
      "!!!",
      "not a cursor",
      "abc",
      "x".repeat(40),
      forged("not-a-cursor"),
      forged("1.abc.def"),
      forged("2.abc.def.4"),
      forged("1.abc.def.-4"),
      forged("1.abc.def.four"),
      forged("1..def.4"),
      issued.slice(0, 10),
      `${issued}=`,
      `${issued}.`,
    ]) {
      const issues = issuesOf(() => search({ limit: 2, cursor }));
      expect(issues, cursor).toEqual([{ path: "cursor", code: "invalid_cursor", message: expect.any(String) }]);
    }
    expect(issuesOf(() => search({ cursor: "" }))[0]?.path).toBe("cursor");
    expect(issuesOf(() => search({ cursor: "a".repeat(201) }))[0]?.path).toBe("cursor");
  });

  it("rejects a cursor issued for another version of the data", () => {
    const foreign = search({ limit: 2 }, otherVersion).next_cursor as string;
    const issues = issuesOf(() => search({ limit: 2, cursor: foreign }));
    expect(issues).toEqual([{ path: "cursor", code: "invalid_cursor", message: expect.stringMatching(/version/) }]);
    // And the other way round.
    const ours = search({ limit: 2 }).next_cursor as string;
    expect(issuesOf(() => search({ limit: 2, cursor: ours }, otherVersion))[0]?.code).toBe("invalid_cursor");
  });

  it("rejects a cursor issued for a different query", () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{}, { sort: "oldest" }],
      [{ sort: "highest" }, { sort: "lowest" }],
      [{ rating: 5 }, { rating: 4 }],
      [{ rating: 5 }, {}],
      [{ min_rating: 2 }, { min_rating: 3 }],
      [{ query: "the" }, { query: "a" }],
      [{ mentions_technician: "chris" }, { mentions_technician: "dana" }],
      [{ mentions_service: "drain-cleaning" }, {}],
      [{ since: "2024-01-01" }, { since: "2024-01-02" }],
      [{ until: "2026-10-01" }, { until: "2026-10-02" }],
    ];
    for (const [from, to] of cases) {
      const cursor = search({ ...from, limit: 1 }).next_cursor;
      expect(cursor, JSON.stringify(from)).toEqual(expect.any(String));
      const issues = issuesOf(() => search({ ...to, limit: 1, cursor }));
      expect(issues, `${JSON.stringify(from)} -> ${JSON.stringify(to)}`).toEqual([
        { path: "cursor", code: "invalid_cursor", message: expect.stringMatching(/query/) },
      ]);
    }
  });
});
