/**
 * The search service in src/search/, in process, on tests/fixtures/data-search: 26 hand-written
 * reviews with accented and mixed-case words (café, Müller, naïve, résumé, one title in decomposed
 * form), both "Chris M." and "Chris A.", several reviews on one date, every rating, an owner reply
 * and an author name that must not be searched.
 *
 * The property tests compare the service with a naive filter + sort + slice written here, and feed
 * random invalid query strings to the HTTP decoder. Runs are reproducible: every property uses
 * FC_SEED (default below); set FC_SEED to explore others.
 *
 * Tests marked `it.fails` pin bugs found in src/search (see the comment on each); flip them to `it`
 * once fixed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { buildReviewsDocument } from "../src/documents/reviews-document.ts";
import type { ValidationIssue } from "../src/schemas/errors.ts";
import type { Review } from "../src/schemas/review.ts";
import {
  type SearchResponse,
  SearchResponseSchema,
  type SearchSort,
  SinceResponseSchema,
} from "../src/schemas/search.ts";
import { InvalidRequestError } from "../src/search/errors.ts";
import { searchReviewsFromQuery } from "../src/search/query-string.ts";
import { buildReviewIndex, type ReviewIndex } from "../src/search/review-index.ts";
import { reviewsSince } from "../src/search/reviews-since.ts";
import { parseSearchParams, searchReviews } from "../src/search/search-reviews.ts";

const SEED = Number(process.env.FC_SEED ?? 20261101);
const runs = (numRuns?: number): fc.Parameters<unknown> => ({ seed: SEED, ...(numRuns ? { numRuns } : {}) });

const dataset = loadDataset("tests/fixtures/data-search", { today: "2026-11-01" });
const document = buildReviewsDocument(dataset);
const index = buildReviewIndex(document, "v1");
/** The same reviews as another data version: its cursors must not work on `index`. */
const otherVersion = buildReviewIndex(document, "v2");
const REVIEWS: readonly Review[] = document.reviews;
const SORTS: readonly SearchSort[] = ["newest", "oldest", "highest", "lowest"];
const PARAMETERS = [
  "rating",
  "min_rating",
  "since",
  "until",
  "query",
  "mentions_technician",
  "mentions_service",
  "limit",
  "sort",
  "cursor",
] as const;

const ids = (response: { reviews: readonly Review[] }) => response.reviews.map((review) => review.id);
const search = (args: Record<string, unknown>, on: ReviewIndex = index) => searchReviews(on, args);
const fromQuery = (query: string, on: ReviewIndex = index) => searchReviewsFromQuery(on, new URLSearchParams(query));

/** Runs `fn`, which must throw an InvalidRequestError, and returns its issues. */
function issuesOf(fn: () => unknown): ValidationIssue[] {
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
function walk(args: Record<string, unknown>, on: ReviewIndex = index): { ids: string[]; pages: number } {
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

// ---------------------------------------------------------------------------
// The naive reference: written independently of src/search, as simply as possible
// ---------------------------------------------------------------------------

interface NaiveParams {
  rating?: number;
  min_rating?: number;
  since?: string;
  until?: string;
  query?: string;
  mentions_technician?: string;
  mentions_service?: string;
  limit?: number;
  sort?: SearchSort;
}

const plain = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

function technicianNamesFor(key: string): string[] {
  const wanted = key.trim().toLowerCase();
  return dataset.business.technicians
    .filter(
      (t) =>
        t.id.toLowerCase() === wanted ||
        t.name.toLowerCase() === wanted ||
        (t.name.split(" ")[0] ?? "").toLowerCase() === wanted,
    )
    .map((t) => t.name);
}

/** Newest first: date descending, then id descending. */
function newestFirst(a: Review, b: Review): number {
  if (a.date !== b.date) return a.date > b.date ? -1 : 1;
  if (a.id !== b.id) return a.id > b.id ? -1 : 1;
  return 0;
}

const ORDERS: Record<SearchSort, (a: Review, b: Review) => number> = {
  newest: newestFirst,
  // Oldest is exactly the reverse of newest: date ascending, then id ascending.
  oldest: (a, b) => newestFirst(b, a),
  // Rating ties: newest first, then id.
  highest: (a, b) => b.rating - a.rating || newestFirst(a, b),
  lowest: (a, b) => a.rating - b.rating || newestFirst(a, b),
};

function naiveMatches(params: NaiveParams): Review[] {
  const names = params.mentions_technician === undefined ? [] : technicianNamesFor(params.mentions_technician);
  const matches = REVIEWS.filter((review) => {
    if (params.rating !== undefined && review.rating !== params.rating) return false;
    if (params.min_rating !== undefined && review.rating < params.min_rating) return false;
    if (params.since !== undefined && review.date < params.since) return false;
    if (params.until !== undefined && review.date > params.until) return false;
    if (params.query !== undefined) {
      const needle = plain(params.query);
      if (!plain(review.text).includes(needle) && !plain(review.title ?? "").includes(needle)) return false;
    }
    if (params.mentions_technician !== undefined && !review.technicians.some((name) => names.includes(name))) {
      return false;
    }
    if (
      params.mentions_service !== undefined &&
      !review.services.some((id) => id.toLowerCase() === params.mentions_service?.toLowerCase())
    ) {
      return false;
    }
    return true;
  });
  return matches.sort(ORDERS[params.sort ?? "newest"]);
}

const naiveIds = (params: NaiveParams) => naiveMatches(params).map((review) => review.id);

function toQueryString(params: Record<string, unknown>): string {
  return Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join("&");
}

// ---------------------------------------------------------------------------
// The fixture itself
// ---------------------------------------------------------------------------

describe("the data-search fixture", () => {
  it("has what the tests below rely on", () => {
    expect(REVIEWS).toHaveLength(26);
    expect(new Set(REVIEWS.map((r) => r.rating))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(REVIEWS.filter((r) => r.date === "2025-06-10")).toHaveLength(4);
    expect(REVIEWS.filter((r) => r.date === "2026-10-31")).toHaveLength(3);
    const names = REVIEWS.flatMap((r) => r.technicians);
    expect(names).toContain("Chris M.");
    expect(names).toContain("Chris A.");
    // One title is stored decomposed (e + combining acute): matching must not depend on the form.
    expect(REVIEWS.some((r) => r.title?.includes("e\u0301"))).toBe(true);
    expect(REVIEWS.every((r) => r.date < "2026-11-01" && r.date >= "2024-01-01")).toBe(true);
    // The reference sort agrees with the document's own order.
    expect(naiveIds({})).toEqual(REVIEWS.map((r) => r.id));
  });
});

// ---------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------

describe("searchReviews filters", () => {
  it("defaults to limit 20, newest first, and reports total, count, limit and next_cursor", () => {
    expect(parseSearchParams({})).toEqual({ limit: 20, sort: "newest" });
    const first = search({});
    expect(first.total).toBe(26);
    expect(first.count).toBe(20);
    expect(first.limit).toBe(20);
    expect(typeof first.next_cursor).toBe("string");
    expect(ids(first)).toEqual(REVIEWS.slice(0, 20).map((r) => r.id));
    expect(Object.keys(first)).toEqual(["total", "count", "limit", "next_cursor", "reviews"]);
    const all = search({ limit: 100 });
    expect(all.count).toBe(26);
    expect(all.next_cursor).toBeNull();
  });

  it("rating matches exactly; min_rating is inclusive and may be fractional", () => {
    expect(search({ rating: 5 }).total).toBe(8);
    expect(search({ rating: 1 }).total).toBe(3);
    expect(search({ rating: 5, limit: 100 }).reviews.every((r) => r.rating === 5)).toBe(true);
    expect(search({ min_rating: 4 }).total).toBe(14);
    expect(search({ min_rating: 4.5 }).total).toBe(8);
    expect(search({ min_rating: 1 }).total).toBe(26);
    expect(search({ min_rating: 5 }).total).toBe(8);
    expect(search({ min_rating: 3.5, limit: 100 }).reviews.every((r) => r.rating >= 4)).toBe(true);
  });

  it("rating and min_rating both apply", () => {
    expect(search({ rating: 3, min_rating: 4 }).total).toBe(0);
    expect(search({ rating: 4, min_rating: 3.5 }).total).toBe(6);
    expect(search({ rating: 4, min_rating: 4 }).total).toBe(6);
    expect(search({ rating: 4, min_rating: 4.1 }).total).toBe(0);
  });

  it("since and until are inclusive calendar dates", () => {
    expect(ids(search({ since: "2026-10-31" }))).toEqual(["2026-10-31-pat-q", "2026-10-31-ona-p", "2026-10-31-ned-o"]);
    expect(ids(search({ until: "2024-01-15" }))).toEqual(["2024-01-15-anna-k"]);
    expect(search({ since: "2025-06-10", until: "2025-06-10" }).total).toBe(4);
    expect(search({ since: "2025-06-11", until: "2025-08-15" }).total).toBe(1);
    expect(search({ since: "2024-02-29", until: "2024-03-30" }).total).toBe(1);
    expect(search({ since: "2026-11-01" }).total).toBe(0);
    expect(search({ until: "2023-12-31" }).total).toBe(0);
  });

  it("since after until is an invalid range", () => {
    const issues = issuesOf(() => search({ since: "2025-06-11", until: "2025-06-10" }));
    expect(issues).toEqual([{ path: "since", code: "invalid_range", message: expect.stringContaining("until") }]);
  });

  it("query is a case- and accent-insensitive substring of the title or the text", () => {
    const cafe = ["2025-08-15-eli-f", "2024-08-08-ivy-n", "2024-01-15-anna-k"];
    for (const query of ["cafe", "CAFE", "café", "CAFÉ", "Cafe\u0301", "cAfÉ"]) {
      expect(ids(search({ query })), query).toEqual(cafe);
    }
    const muller = ["2026-02-14-hana-i", "2024-02-20-otto-m"];
    for (const query of ["muller", "Müller", "MÜLLER", "mu\u0308ller"])
      expect(ids(search({ query })), query).toEqual(muller);
    const naive = ["2026-07-04-lou-m", "2025-02-28-mia-s", "2024-03-30-lena-p"];
    for (const query of ["naive", "naïve", "NAÏVE"]) expect(ids(search({ query })), query).toEqual(naive);
    expect(ids(search({ query: "naïveté" }))).toEqual(["2025-02-28-mia-s"]);
    const resume = ["2026-02-14-ian-j", "2025-11-11-gil-h", "2024-05-05-sam-r"];
    for (const query of ["resume", "résumé", "RÉSUMÉ", "Resume"]) expect(ids(search({ query })), query).toEqual(resume);
  });

  it("query searches the title alone, the text alone, and phrases across words", () => {
    expect(ids(search({ query: "spooky" }))).toEqual(["2024-10-31-hal-w"]); // title only
    expect(ids(search({ query: "acoustic tool" }))).toEqual(["2025-09-01-fay-g"]); // text only
    expect(ids(search({ query: "Halloween" }))).toEqual(["2026-10-31-pat-q", "2026-10-31-ned-o"]);
    expect(search({ query: "xyzzy" }).total).toBe(0);
  });

  it("query does not search owner replies or author names", () => {
    expect(search({ query: "zebra" }).total).toBe(0); // only in an owner reply
    expect(search({ query: "Zoë" }).total).toBe(0); // an author name and a reply
    expect(search({ query: "Otto" }).total).toBe(0); // an author name
  });

  // BUG (src/search/review-index.ts, `folded`): the title and the text are folded into one string
  // joined by "\n", so a query containing a line break matches across the end of the title and the
  // start of the text: "joke\nthe" finds 2026-04-01-jon-k (title "Not a joke", text "The sewer…")
  // although neither the title nor the text contains it. Fold and test title and text separately.
  it("a query never matches across the boundary between title and text", () => {
    expect(search({ query: "joke\nthe" }).total).toBe(0);
  });

  it("mentions_technician matches by id, display name or first name, in any case", () => {
    const chrisM = [
      "2026-07-04-lou-m",
      "2026-04-01-jon-k",
      "2025-06-10-carla-d",
      "2025-06-10-bob-c",
      "2024-10-31-hal-w",
    ];
    const chrisA = ["2026-07-04-lou-m", "2026-05-20-kay-l", "2025-06-10-carla-d", "2024-05-05-sam-r"];
    for (const key of ["Chris M.", "chris m.", "CHRIS M.", "chris-moreno", "Chris-Moreno"]) {
      expect(ids(search({ mentions_technician: key })), key).toEqual(chrisM);
    }
    for (const key of ["Chris A.", "chris a.", "chris-albright", "CHRIS-ALBRIGHT"]) {
      expect(ids(search({ mentions_technician: key })), key).toEqual(chrisA);
    }
    const chris = naiveIds({ mentions_technician: "chris" });
    expect(chris).toHaveLength(7);
    for (const key of ["chris", "Chris", "CHRIS", "cHrIs"]) {
      expect(ids(search({ mentions_technician: key })), key).toEqual(chris);
    }
    expect(new Set(chris)).toEqual(new Set([...chrisM, ...chrisA]));
    expect(ids(search({ mentions_technician: "dana" }))).toEqual([
      "2026-10-31-ona-p",
      "2025-06-10-alice-b",
      "2024-01-15-anna-k",
    ]);
  });

  it("mentions_technician looks at the technicians of the job, not at the text", () => {
    // "Christmas" and "Marcus" appear in texts of reviews whose technicians are others.
    expect(search({ mentions_technician: "chris" }).reviews.some((r) => r.id === "2024-12-24-joy-l")).toBe(false);
    expect(ids(search({ mentions_technician: "marcus" }))).toEqual(naiveIds({ mentions_technician: "Marcus B." }));
  });

  it("an unknown technician or service gives no results, not an error", () => {
    for (const mentions_technician of ["nobody", "Chris Q.", "moreno", "chris m"]) {
      const response = search({ mentions_technician });
      expect(response, mentions_technician).toEqual({ total: 0, count: 0, limit: 20, next_cursor: null, reviews: [] });
    }
    expect(search({ mentions_service: "plumbing" }).total).toBe(0);
    expect(fromQuery("mentions_technician=nobody").total).toBe(0);
  });

  it("mentions_service matches a service id exactly, case-insensitively", () => {
    const drains = ["2026-10-31-ned-o", "2026-07-04-lou-m", "2025-06-10-bob-c", "2024-01-15-anna-k"];
    for (const id of ["drain-cleaning", "DRAIN-CLEANING", "Drain-Cleaning"]) {
      expect(ids(search({ mentions_service: id })), id).toEqual(drains);
    }
    expect(search({ mentions_service: "drain" }).total).toBe(0);
    expect(search({ mentions_service: "cleaning" }).total).toBe(0);
    expect(search({ mentions_service: "Drain cleaning" }).total).toBe(0); // the name, not the id
    expect(search({ mentions_service: "leak-detection" }).total).toBe(4);
  });

  it("combines every filter with AND", () => {
    expect(ids(search({ mentions_technician: "chris", mentions_service: "drain-cleaning" }))).toEqual([
      "2026-07-04-lou-m",
      "2025-06-10-bob-c",
    ]);
    expect(ids(search({ mentions_technician: "chris", mentions_service: "drain-cleaning", query: "kitchen" }))).toEqual(
      ["2025-06-10-bob-c"],
    );
    expect(
      search({ mentions_technician: "chris", mentions_service: "drain-cleaning", since: "2026-01-01" }).total,
    ).toBe(1);
    expect(ids(search({ query: "cafe", min_rating: 5 }))).toEqual(["2024-08-08-ivy-n", "2024-01-15-anna-k"]);
    expect(ids(search({ query: "cafe", rating: 4, mentions_service: "FAUCET-FIXTURE" }))).toEqual(["2025-08-15-eli-f"]);
    expect(
      ids(
        search({
          rating: 5,
          min_rating: 5,
          since: "2024-01-01",
          until: "2024-12-31",
          query: "the",
          mentions_technician: "luis-ortega",
          mentions_service: "emergency-plumbing",
          sort: "oldest",
        }),
      ),
    ).toEqual(["2024-12-24-joy-l"]);
    const combos: NaiveParams[] = [
      { min_rating: 3, mentions_technician: "chris" },
      { since: "2025-01-01", until: "2025-12-31", query: "the" },
      { rating: 2, mentions_service: "gas-line", sort: "lowest" },
      { query: "heater", mentions_technician: "bill", sort: "highest" },
    ];
    for (const combo of combos)
      expect(ids(search({ ...combo, limit: 100 })), JSON.stringify(combo)).toEqual(naiveIds(combo));
  });
});

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
    const rebuilt = buildReviewIndex(buildReviewsDocument(dataset), "v1");
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

  // BUG (src/search/search-reviews.ts, parseSearchParams): the since-after-until check runs only
  // when the schema accepted everything else, so any other problem hides it and the client has to
  // fix one error, resend, and only then learn about the range. The requirement is "all problems at
  // once". Check the range whenever both since and until are valid dates, whatever else failed.
  it("reports since after until together with other problems", () => {
    const issues = issuesOf(() => fromQuery("since=2025-05-01&until=2025-01-01&limit=0"));
    expect(issues.map((issue) => issue.path).sort()).toEqual(["limit", "since"]);
  });
  it("reports since after until together with other problems (typed arguments)", () => {
    const issues = issuesOf(() => search({ since: "2025-05-01", until: "2025-01-01", rating: 7 }));
    expect(issues.map((issue) => issue.path).sort()).toEqual(["rating", "since"]);
  });

  // BUG (src/search/search-reviews.ts, searchReviews): the cursor is decoded only after
  // parseSearchParams succeeded, so a malformed cursor is not reported together with the other
  // problems: "rating=0&cursor=!!!" answers only about rating, and the client learns about the
  // cursor on the next attempt. Whether a cursor is well-formed does not depend on the other
  // parameters; decode it before throwing (the version and query checks may still need valid params).
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
    const response = reviewsSince(index, "2026-07-04");
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
      expect(ids(reviewsSince(index, date)), date).toEqual(naiveIds({ since: date }));
    }
    expect(reviewsSince(index, "2020-01-01").count).toBe(26);
  });

  it("gives an empty list for a date after the latest review, including future dates", () => {
    for (const date of ["2026-11-01", "2027-01-01", "2999-12-31"]) {
      expect(reviewsSince(index, date)).toEqual({ since: date, count: 0, reviews: [] });
    }
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
      const issues = issuesOf(() => reviewsSince(index, date));
      expect(issues, date).toEqual([{ path: "date", code: "invalid_format", message: expect.any(String) }]);
    }
  });
});

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/** Words and phrases of the fixture (with their case and accents shuffled) and some that are absent. */
const queryArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "café",
    "CAFE",
    "Cafe\u0301",
    "muller",
    "MÜLLER",
    "naïve",
    "NAIVE",
    "résumé",
    "resume",
    "the",
    "drain",
    "water heater",
    "Chris",
    "zebra",
    "xyzzy",
    "e",
    " ",
    ".",
  ),
  // A substring of a real title or text, its letters in random case.
  fc
    .tuple(fc.constantFrom(...REVIEWS), fc.boolean(), fc.nat(), fc.integer({ min: 1, max: 12 }), fc.array(fc.boolean()))
    .map(([review, useTitle, start, length, upper]) => {
      const source = (useTitle && review.title) || review.text;
      const from = start % source.length;
      const cut = source.slice(from, from + length);
      return [...cut]
        .map((c, i) => (upper[i % Math.max(1, upper.length)] ? c.toUpperCase() : c.toLowerCase()))
        .join("");
    })
    .filter((text) => text.length > 0 && !text.includes("\n")),
);

const TECHNICIAN_KEYS = dataset.business.technicians.flatMap((t) => [t.id, t.name, t.name.split(" ")[0] ?? t.name]);
const technicianArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.tuple(fc.constantFrom(...TECHNICIAN_KEYS), fc.boolean()).map(([k, up]) => (up ? k.toUpperCase() : k)),
  },
  { weight: 1, arbitrary: fc.constantFrom("nobody", "Chris Q.") },
);
const SERVICE_IDS = dataset.business.services.map((s) => s.id);
const serviceArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.tuple(fc.constantFrom(...SERVICE_IDS), fc.boolean()).map(([id, up]) => (up ? id.toUpperCase() : id)),
  },
  { weight: 1, arbitrary: fc.constantFrom("unknown-service", "drain") },
);
const dateArb = fc
  .date({ min: new Date("2023-12-01T00:00:00Z"), max: new Date("2026-12-31T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const DATA_DATES = [...new Set(REVIEWS.map((r) => r.date))];
const anyDateArb = fc.oneof(dateArb, fc.constantFrom(...DATA_DATES));

/** Present about one time in four, so that combinations still match something. */
const sometimes = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

const validParamsArb: fc.Arbitrary<NaiveParams> = fc
  .record({
    rating: sometimes(fc.integer({ min: 1, max: 5 })),
    min_rating: sometimes(
      fc.oneof(
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(1.5, 2.5, 3.7, 4.5, 4.99),
        fc.double({ min: 1, max: 5, noNaN: true }),
      ),
    ),
    since: sometimes(anyDateArb),
    until: sometimes(anyDateArb),
    query: sometimes(queryArb),
    mentions_technician: sometimes(technicianArb),
    mentions_service: sometimes(serviceArb),
    limit: sometimes(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 100 }))),
    sort: sometimes(fc.constantFrom(...SORTS)),
  })
  .map((record) => {
    const params = Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as NaiveParams;
    // A range that ends before it starts is an error, tested separately: order the two dates.
    if (params.since !== undefined && params.until !== undefined && params.since > params.until) {
      return { ...params, since: params.until, until: params.since };
    }
    return params;
  });

describe("properties", () => {
  it("any valid parameters give exactly what a naive filter, sort and slice gives", () => {
    fc.assert(
      fc.property(validParamsArb, (params) => {
        const expected = naiveIds(params);
        const limit = params.limit ?? 20;
        const response = searchReviews(index, params);
        expect(response.total).toBe(expected.length);
        expect(ids(response)).toEqual(expected.slice(0, limit));
        expect(response.count).toBe(Math.min(limit, expected.length));
        expect(response.limit).toBe(limit);
        expect(response.next_cursor === null).toBe(expected.length <= limit);
        // The same parameters as an HTTP query string give the same answer.
        expect(fromQuery(toQueryString({ ...params }))).toEqual(response);
        // And following the cursors yields the whole list.
        expect(walk({ ...params }).ids).toEqual(expected);
      }),
      runs(500),
    );
  });

  /** One piece of a query string that is wrong by itself; `path` is the parameter it must be reported under. */
  interface Bad {
    pairs: [string, string][];
    path: string;
  }
  const single = (name: string, value: fc.Arbitrary<string>): fc.Arbitrary<Bad> =>
    value.map((v) => ({ pairs: [[name, v]], path: name }));
  const numberText = (n: number) => String(n);
  const KNOWN: readonly string[] = PARAMETERS;

  const badArb: fc.Arbitrary<Bad> = fc.oneof(
    // Unknown names (typos, other case, odd characters, prototype keys, the empty name).
    fc
      .tuple(
        fc.oneof(
          fc.stringMatching(/^[a-z_]{1,15}$/),
          fc.constantFrom(
            "Rating",
            "LIMIT",
            "min-rating",
            "min_ratting",
            "q",
            "__proto__",
            "constructor",
            "toString",
            "",
            " ",
            "ü",
          ),
          fc.string({ maxLength: 10 }),
        ),
        fc.string({ maxLength: 10 }),
      )
      .filter(([name]) => !KNOWN.includes(name))
      .map(([name, value]): Bad => ({ pairs: [[name, value]], path: name })),
    // Repeated parameters, each time with a valid value.
    fc
      .constantFrom<[string, string]>(
        ["rating", "5"],
        ["min_rating", "3"],
        ["since", "2025-01-01"],
        ["until", "2026-01-01"],
        ["query", "the"],
        ["mentions_technician", "chris"],
        ["mentions_service", "gas-line"],
        ["limit", "5"],
        ["sort", "oldest"],
      )
      .chain(([name, value]) =>
        fc.integer({ min: 2, max: 4 }).map(
          (times): Bad => ({
            pairs: Array.from({ length: times }, () => [name, value] as [string, string]),
            path: name,
          }),
        ),
      ),
    // Empty values.
    fc.constantFrom(...KNOWN).map((name): Bad => ({ pairs: [[name, ""]], path: name })),
    // Numbers out of range or not whole.
    single("rating", fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 6 })).map(numberText)),
    single("rating", fc.constantFrom("1.5", "4.25", "-3", "0", "6", "10")),
    single(
      "min_rating",
      fc
        .double({ noNaN: true })
        .filter((n) => n < 1 || n > 5)
        .map(numberText),
    ),
    single("limit", fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 101 })).map(numberText)),
    single("limit", fc.constantFrom("2.5", "99.9", "0.5", "-0", "1000")),
    // Not numbers at all.
    ...(["rating", "min_rating", "limit"] as const).map((name) =>
      single(
        name,
        fc.oneof(
          fc.constantFrom("abc", "five", "1e2", "0x10", " 3", "3 ", "NaN", "Infinity", "--1", "1,5", "½", "3a", "٣"),
          fc.stringMatching(/^[a-z]{1,6}$/),
        ),
      ),
    ),
    // Dates that are malformed or do not exist.
    ...(["since", "until"] as const).map((name) =>
      single(
        name,
        fc.oneof(
          fc.constantFrom(
            "2025-02-30",
            "2025-02-29",
            "2100-02-29",
            "2025-13-01",
            "2025-00-10",
            "2025-04-31",
            "2025-1-01",
            "20250101",
            "yesterday",
            "2025-01-01T00:00:00Z",
            "2025/01/01",
          ),
          fc.string({ maxLength: 12 }).filter((s) => s.length > 0 && !/^\d{4}-\d{2}-\d{2}$/.test(s)),
        ),
      ),
    ),
    // Other bad values.
    single(
      "sort",
      fc.string({ minLength: 1, maxLength: 10 }).filter((s) => !(SORTS as readonly string[]).includes(s)),
    ),
    single("cursor", fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constantFrom("!!!", "abc", "MS4uLjA"))),
    single(
      "query",
      fc.integer({ min: 201, max: 400 }).map((n) => "q".repeat(n)),
    ),
    // A range that ends before it starts.
    fc
      .tuple(dateArb, dateArb)
      .filter(([a, b]) => a !== b)
      .map(([a, b]): Bad => {
        const [earlier = a, later = b] = [a, b].sort();
        return {
          pairs: [
            ["since", later],
            ["until", earlier],
          ],
          path: "since",
        };
      }),
  );

  const goodPairArb: fc.Arbitrary<[string, string]> = fc.constantFrom<[string, string]>(
    ["rating", "4"],
    ["min_rating", "2.5"],
    ["query", "café"],
    ["mentions_technician", "Chris"],
    ["mentions_service", "DRAIN-CLEANING"],
    ["limit", "7"],
    ["sort", "lowest"],
  );

  it("invalid query strings always fail with InvalidRequestError listing the parameters at fault", () => {
    fc.assert(
      fc.property(
        fc.array(badArb, { minLength: 1, maxLength: 4 }),
        fc.array(goodPairArb, { maxLength: 3 }),
        fc.nat(),
        (bads, goods, shuffle) => {
          const pairs = [...bads.flatMap((bad) => bad.pairs), ...goods];
          // Rotate so invalid pieces are not always first.
          const rotated = [...pairs.slice(shuffle % pairs.length), ...pairs.slice(0, shuffle % pairs.length)];
          const query = rotated.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join("&");
          let thrown: unknown;
          try {
            fromQuery(query);
          } catch (error) {
            thrown = error;
          }
          expect(thrown, query).toBeInstanceOf(InvalidRequestError);
          const issues = (thrown as InvalidRequestError).issues;
          expect(issues.length, query).toBeGreaterThan(0);
          for (const issue of issues) {
            expect(Object.keys(issue).sort()).toEqual(["code", "message", "path"]);
            expect(issue.message.length).toBeGreaterThan(0);
          }
          const paths = new Set(issues.map((issue) => issue.path));
          // Every piece that is wrong by itself is reported, together with the others. A parameter
          // without a name is reported as "(empty name)". A reversed range cannot be judged when
          // another piece makes since or until itself invalid (given twice, say).
          const touches = (name: string, except: Bad) =>
            bads.some((other) => other !== except && other.pairs.some(([key]) => key === name));
          for (const bad of bads) {
            const isRange = bad.pairs.length === 2 && bad.pairs[0]?.[0] === "since" && bad.pairs[1]?.[0] === "until";
            if (isRange && (touches("since", bad) || touches("until", bad))) continue;
            const path = bad.path === "" ? "(empty name)" : bad.path;
            expect(paths.has(path), `${query} should report ${path}: ${JSON.stringify(issues)}`).toBe(true);
          }
        },
      ),
      runs(1000),
    );
  });

  it("typed arguments of any shape either succeed or fail with InvalidRequestError", () => {
    const value = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.nat()));
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...KNOWN, "extra"), value), (args) => {
        try {
          const response = searchReviews(index, args);
          SearchResponseSchema.parse(response);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidRequestError);
          expect((error as InvalidRequestError).issues.length).toBeGreaterThan(0);
        }
      }),
      runs(500),
    );
  });
});
