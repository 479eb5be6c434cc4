/**
 * The two read routes on the shared build of the sample data: response shapes, filters and sorts,
 * 400s that list every problem, and no 500 and no internal detail for garbage input.
 *
 * Property runs use FC_SEED (see support/api-server.ts).
 */

import type { Review } from "@riverbend/shared/schemas/review.ts";
import { SearchResponseSchema, SinceResponseSchema } from "@riverbend/shared/schemas/search.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  expectInvalidRequest,
  expectNoLeak,
  get,
  reviewCount,
  SEED,
  servedReviews,
  useApiServer,
} from "./support/api-server.ts";

useApiServer();

describe("GET /api/reviews/search", () => {
  it("answers 200 with total, count, limit, next_cursor and reviews", async () => {
    const response = await get("/api/reviews/search?limit=3");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
    const body = await response.json();
    expect(SearchResponseSchema.parse(body)).toEqual(body);
    expect(Object.keys(body)).toEqual(["total", "count", "limit", "next_cursor", "reviews"]);
    expect(body).toMatchObject({ total: reviewCount, count: 3, limit: 3 });
    expect(body.reviews.map((r: Review) => r.id)).toEqual(
      servedReviews()
        .slice(0, 3)
        .map((review) => review.id),
    );

    const next = await (await get(`/api/reviews/search?limit=3&cursor=${body.next_cursor}`)).json();
    expect(next.reviews.map((r: Review) => r.id)).toEqual(
      servedReviews()
        .slice(3, 6)
        .map((review) => review.id),
    );
  });

  it("applies filters and sorts from the query string", async () => {
    const body = await (
      await get("/api/reviews/search?mentions_technician=chris&min_rating=4&sort=oldest&limit=100&query=DRAIN")
    ).json();
    expect(body.total).toBeGreaterThan(0);
    for (const review of body.reviews as Review[]) {
      expect(review.technicians.some((name) => name.startsWith("Chris "))).toBe(true);
      expect(review.rating).toBeGreaterThanOrEqual(4);
      expect(`${review.title ?? ""}\n${review.text}`.toLowerCase()).toContain("drain");
    }
    const dates = (body.reviews as Review[]).map((review) => review.date);
    expect(dates).toEqual([...dates].sort());
    const none = await (await get("/api/reviews/search?mentions_technician=Luis&query=zzzzqqq")).json();
    expect(none).toEqual({ total: 0, count: 0, limit: 20, next_cursor: null, reviews: [] });
  });

  it("refuses a technician or service that does not exist, listing the valid values and the closest", async () => {
    const response = await get("/api/reviews/search?mentions_technician=luiz");
    expect(await expectInvalidRequest(response.clone())).toEqual(["mentions_technician"]);
    const { issues } = await response.json();
    expect(issues[0].code).toBe("unknown_value");
    expect(issues[0].message).toMatch(/did you mean "Luis [A-Z]\."\?/);
    expect(await expectInvalidRequest(await get("/api/reviews/search?mentions_service=drain"))).toEqual([
      "mentions_service",
    ]);
  });

  it("answers malformed percent-encoding with 400 and issues, like any other bad value", async () => {
    for (const query of ["query=%", "query=%E0%A4%A", "query=%FF", "q%ZZuery=late", "limit=5&query=100%"]) {
      const paths = await expectInvalidRequest(await get(`/api/reviews/search?${query}`));
      expect(paths.length, query).toBeGreaterThan(0);
    }
    expect(await expectInvalidRequest(await get("/api/reviews/since/2026-01-01?limit=%"))).toEqual(["limit"]);
    expect(await expectInvalidRequest(await get("/api/reviews/since/2026-01-0%"))).toEqual(["date"]);
  });

  it("answers 400 listing every problem at once", async () => {
    const paths = await expectInvalidRequest(
      await get(
        "/api/reviews/search?min_ratting=3&rating=9&rating=2&query=&limit=0&since=2025-02-30&sort=random&until=tomorrow",
      ),
    );
    expect(paths.sort()).toEqual(["limit", "min_ratting", "query", "rating", "since", "sort", "until"]);
    expect(await expectInvalidRequest(await get("/api/reviews/search?since=2025-06-02&until=2025-06-01"))).toEqual([
      "since",
    ]);
    expect(await expectInvalidRequest(await get("/api/reviews/search?cursor=not-a-cursor"))).toEqual(["cursor"]);
    const response = await get("/api/reviews/search?limit=0");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = await response.json();
    expect(body).toEqual({
      error: "invalid_request",
      message: expect.stringContaining("limit"),
      issues: [{ path: "limit", code: "too_small", message: expect.any(String) }],
    });
  });

  it("rejects a cursor used with another query", async () => {
    const first = await (await get("/api/reviews/search?limit=2&sort=highest")).json();
    expect(
      await expectInvalidRequest(await get(`/api/reviews/search?limit=2&sort=lowest&cursor=${first.next_cursor}`)),
    ).toEqual(["cursor"]);
  });

  it("never answers 500 or leaks internals, whatever the query string", async () => {
    const KNOWN = [
      "rating",
      "min_rating",
      "since",
      "until",
      "query",
      "mentions_technician",
      "mentions_service",
      "area",
      "topic",
      "facets",
    ];
    const MORE = ["limit", "sort", "cursor"];
    const alphabet = fc.constantFrom(
      ..."abcdeiorstxyz_-.~+%&=;,[]{}()'\"!$*@? 0123456789".split(""),
      "é",
      "ü",
      "\u0301",
      "😀",
      "%00",
      "%zz",
      "%E0%A4%A",
      "%ED%A0%80",
      "%2F",
      "__proto__",
      "constructor",
    );
    const raw = fc.string({ unit: alphabet, maxLength: 60 });
    const pair = fc
      .tuple(
        fc.oneof(fc.constantFrom(...KNOWN, ...MORE), raw),
        fc.oneof(raw, fc.constantFrom("5", "2025-02-30", "newest")),
      )
      .map(([name, value]) => `${name}=${value}`);
    const queryString = fc.oneof(
      raw,
      fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join("&")),
    );
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(queryString, async (query) => {
        const response = await get(`/api/reviews/search?${query}`);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const text = await response.text();
        expect([200, 400], `${query} -> ${response.status} ${text.slice(0, 200)}`).toContain(response.status);
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        expectNoLeak(text, query);
        const body = JSON.parse(text);
        if (response.status === 200) SearchResponseSchema.parse(body);
        else {
          expect(body.error).toBe("invalid_request");
          expect(body.issues.length).toBeGreaterThan(0);
        }
      }),
      { seed: SEED, numRuns: 200 },
    );
    expect(statuses.get(400)).toBeGreaterThan(50);
  });
});

describe("GET /api/reviews/since/{date}", () => {
  it("answers reviews dated on or after the date, newest first", async () => {
    const response = await get("/api/reviews/since/2026-01-01");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = await response.json();
    expect(SinceResponseSchema.parse(body)).toEqual(body);
    expect(Object.keys(body)).toEqual(["since", "total", "count", "next_cursor", "reviews"]);
    expect(body.since).toBe("2026-01-01");
    expect(body.count).toBe(body.reviews.length);
    expect(body.next_cursor).toBeNull();
    const expected = servedReviews().filter((review) => review.date >= "2026-01-01");
    expect(body.count).toBe(expected.length);
    expect(body.reviews.map((r: Review) => r.id)).toEqual(expected.map((review) => review.id));
    expect((await (await get("/api/reviews/since/2000-01-01")).json()).count).toBe(reviewCount);
  });

  it("answers 400 in the same shape for a malformed or impossible date", async () => {
    for (const date of [
      "yesterday",
      "2025-02-30",
      "2025-02-29",
      "2025-13-01",
      "2025-1-01",
      "20250101",
      "2025-01-01x",
    ]) {
      const response = await get(`/api/reviews/since/${date}`);
      expect(await expectInvalidRequest(response), date).toEqual(["date"]);
    }
  });

  // A regression test: a date segment that is not valid percent-encoding ("%E0%A4%A") once failed in
  // the router and got the generic bad_request body with no `issues`, unlike every other bad date.
  it("answers an undecodable date segment with the same 400 shape", async () => {
    expect(await expectInvalidRequest(await get("/api/reviews/since/%E0%A4%A"))).toEqual(["date"]);
  });

  it("answers 200 with an empty list for a future date", async () => {
    for (const date of ["2099-01-01", "9999-12-31"]) {
      const response = await get(`/api/reviews/since/${date}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ since: date, total: 0, count: 0, next_cursor: null, reviews: [] });
    }
  });

  it("pages with limit and cursor like search, and refuses unknown parameters", async () => {
    const all = await (await get("/api/reviews/since/2000-01-01")).json();
    expect(all.count).toBe(reviewCount);
    const seen: string[] = [];
    let url = "/api/reviews/since/2000-01-01?limit=4";
    for (let page = 0; page < reviewCount; page++) {
      const body = await (await get(url)).json();
      expect(SinceResponseSchema.parse(body)).toEqual(body);
      expect(body.total).toBe(reviewCount);
      seen.push(...body.reviews.map((r: Review) => r.id));
      if (body.next_cursor === null) break;
      expect(body.count).toBe(4);
      url = `/api/reviews/since/2000-01-01?limit=4&cursor=${body.next_cursor}`;
    }
    expect(seen).toEqual(all.reviews.map((r: Review) => r.id));
    const paths = await expectInvalidRequest(await get("/api/reviews/since/2000-01-01?limt=4&limit=0&cursor=abc"));
    expect(paths.sort()).toEqual(["cursor", "limit", "limt"]);
  });

  it("never answers 500 or leaks internals, whatever the date segment", async () => {
    const segment = fc
      .string({
        unit: fc.constantFrom(
          ..."0123456789-abcxyzT:.%+ ".split(""),
          "é",
          "%zz",
          "%E0%A4%A",
          "%2F",
          "2025-02-",
          "2026-01-01",
        ),
        minLength: 1,
        maxLength: 30,
      })
      .filter((s) => s.trim() !== "" && !s.includes("/"));
    await fc.assert(
      fc.asyncProperty(segment, async (date) => {
        const response = await get(`/api/reviews/since/${date}`);
        const text = await response.text();
        expect([200, 400], `${date} -> ${response.status} ${text}`).toContain(response.status);
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        expectNoLeak(text, date);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});
