/**
 * The search engine on 3,000 synthetic reviews, where its two ways of evaluating a query both run
 * (visiting the candidates of a small posting list, and combining bitmaps 32 reviews at a time):
 * random filter combinations give the same totals and pages as a plain filter, sort and slice.
 */
import { readFileSync } from "node:fs";
import { BusinessSchema } from "@riverbend/shared/schemas/business.ts";
import { compareNewestFirst } from "@riverbend/shared/schemas/dataset.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import type { SearchSort } from "@riverbend/shared/schemas/search.ts";
import { foldText } from "@riverbend/shared/search/fold.ts";
import { buildSearchIndex } from "@riverbend/shared/search/search-index.ts";
import { searchReviews } from "@riverbend/shared/search/search-reviews.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aggregateRating } from "../src/reviews-document/aggregate.ts";
import { generateReviews } from "../src/synth/generate.ts";
import { SEED } from "./support/api-server.ts";

const business = BusinessSchema.parse(JSON.parse(readFileSync("data/business.json", "utf8")));
const reviews = [...generateReviews(business, { reviews: 3000, seed: 7, endDate: "2026-11-01", years: 3 })].sort(
  compareNewestFirst,
);
const index = buildSearchIndex({ business, aggregate_rating: aggregateRating(reviews), reviews }, "scale");
const dates = [...new Set(reviews.map((r) => r.date))];
// Words and fragments of the texts (1 to 7 characters, some across word boundaries), and absent ones.
const fragments = [
  ...new Set(
    reviews.slice(0, 200).flatMap((review, i) => {
      const text = foldText(review.text ?? "");
      const at = (i * 37) % Math.max(1, text.length - 8);
      return [text.slice(at, at + 1 + (i % 7)), text.split(/\s+/)[i % 5] ?? "a"];
    }),
  ),
  "zzq",
  "plumbingzz",
].filter((fragment) => fragment.trim() !== "");

const TECHNICIAN_KEYS = business.technicians.flatMap((t) => [t.name, t.id, t.name.split(" ")[0] ?? t.name]);
const SORTS: SearchSort[] = ["newest", "oldest", "highest", "lowest"];
const RANK: Record<SearchSort, (a: Review, b: Review) => number> = {
  newest: compareNewestFirst,
  oldest: (a, b) => compareNewestFirst(b, a),
  highest: (a, b) => b.rating - a.rating || compareNewestFirst(a, b),
  lowest: (a, b) => a.rating - b.rating || compareNewestFirst(a, b),
};

type Params = {
  rating?: number | undefined;
  min_rating?: number | undefined;
  since?: string | undefined;
  until?: string | undefined;
  query?: string | undefined;
  mentions_technician?: string | undefined;
  mentions_service?: string | undefined;
  sort: SearchSort;
  limit: number;
};

function naive(params: Params): Review[] {
  const key = params.mentions_technician?.toLowerCase();
  const names = business.technicians
    .filter((t) => [t.id, t.name, t.name.split(" ")[0]].some((k) => k?.toLowerCase() === key))
    .map((t) => t.name);
  return reviews
    .filter(
      (r) =>
        (params.rating === undefined || r.rating === params.rating) &&
        (params.min_rating === undefined || r.rating >= params.min_rating) &&
        (params.since === undefined || r.date >= params.since) &&
        (params.until === undefined || r.date <= params.until) &&
        (params.query === undefined || foldText(`${r.title ?? ""}\u0000${r.text}`).includes(foldText(params.query))) &&
        (key === undefined || r.technicians.some((name) => names.includes(name))) &&
        (params.mentions_service === undefined || r.services.includes(params.mentions_service)),
    )
    .sort(RANK[params.sort]);
}

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
const paramsArb: fc.Arbitrary<Params> = fc
  .record({
    rating: maybe(fc.integer({ min: 1, max: 5 })),
    min_rating: maybe(fc.constantFrom(1, 2, 3.5, 4, 5)),
    since: maybe(fc.constantFrom(...dates)),
    until: maybe(fc.constantFrom(...dates)),
    query: maybe(fc.constantFrom(...fragments)),
    mentions_technician: maybe(fc.constantFrom(...TECHNICIAN_KEYS)),
    mentions_service: maybe(fc.constantFrom(...business.services.map((s) => s.id))),
    sort: fc.constantFrom(...SORTS),
    limit: fc.integer({ min: 1, max: 100 }),
  })
  .map((p) => (p.since && p.until && p.since > p.until ? { ...p, since: p.until, until: p.since } : p));

const clean = (params: Params) => Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));

describe("the search engine at scale", () => {
  it("gives the totals and pages of a plain filter, sort and slice for any filter combination", () => {
    fc.assert(
      fc.property(paramsArb, fc.integer({ min: 0, max: 3 }), (params, pages) => {
        const expected = naive(params).map((r) => r.id);
        let response = searchReviews(index, clean(params));
        expect(response.total).toBe(expected.length);
        const seen = response.reviews.map((r) => r.id);
        for (let page = 0; page < pages && response.next_cursor; page++) {
          response = searchReviews(index, { ...clean(params), cursor: response.next_cursor });
          seen.push(...response.reviews.map((r) => r.id));
        }
        expect(seen).toEqual(expected.slice(0, seen.length));
        expect(seen.length).toBe(Math.min(expected.length, params.limit * (pages + 1)));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
