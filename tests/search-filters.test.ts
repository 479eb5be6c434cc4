/**
 * The filters of searchReviews (packages/shared/src/search/) on tests/fixtures/data-search, and that the fixture
 * holds what the search tests rely on: accented and mixed-case words, both "Chris M." and
 * "Chris A.", several reviews on one date, every rating, an owner reply and an author name that
 * must not be searched.
 */

import { parseSearchParams } from "@riverbend/shared/search/search-reviews.ts";
import { describe, expect, it } from "vitest";
import { dataset, fromQuery, ids, issuesOf, REVIEWS, search } from "./support/search-fixture.ts";
import { type NaiveParams, naiveIds } from "./support/search-reference.ts";

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

  // A regression test: title and text were once folded into one string joined by "\n", so
  // "joke\nthe" matched across the end of a title and the start of its text.
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

  it("an unknown technician or service is refused with the valid values and the closest one", () => {
    const [luiz] = issuesOf(() => search({ mentions_technician: "luiz" }));
    expect(luiz).toMatchObject({ path: "mentions_technician", code: "unknown_value" });
    expect(luiz?.message).toContain('did you mean "Luis O."?');
    for (const technician of dataset.business.technicians) expect(luiz?.message).toContain(technician.name);
    for (const mentions_technician of ["nobody", "Chris Q.", "moreno", "chris m"]) {
      const [issue] = issuesOf(() => search({ mentions_technician }));
      expect(issue, mentions_technician).toMatchObject({ path: "mentions_technician", code: "unknown_value" });
    }
    const [drain] = issuesOf(() => search({ mentions_service: "drain-cleanin" }));
    expect(drain).toMatchObject({ path: "mentions_service", code: "unknown_value" });
    expect(drain?.message).toContain('did you mean "drain-cleaning"?');
    for (const service of dataset.business.services) expect(drain?.message).toContain(service.id);
    expect(issuesOf(() => search({ mentions_service: "plumbing" }))[0]?.path).toBe("mentions_service");
    expect(issuesOf(() => fromQuery("mentions_technician=nobody"))[0]?.path).toBe("mentions_technician");
  });

  it("mentions_service matches a service id exactly, case-insensitively", () => {
    const drains = ["2026-10-31-ned-o", "2026-07-04-lou-m", "2025-06-10-bob-c", "2024-01-15-anna-k"];
    for (const id of ["drain-cleaning", "DRAIN-CLEANING", "Drain-Cleaning"]) {
      expect(ids(search({ mentions_service: id })), id).toEqual(drains);
    }
    for (const notAnId of ["drain", "cleaning", "Drain cleaning"]) {
      expect(issuesOf(() => search({ mentions_service: notAnId }))[0]?.code, notAnId).toBe("unknown_value");
    }
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
