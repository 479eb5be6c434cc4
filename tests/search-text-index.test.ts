/**
 * The text index (words for needles of letters and digits, grams for the others) selects exactly the
 * reviews whose folded title or text contains the folded needle, as a scan of every review does: for
 * words, fragments inside and across words, absent needles and unusual Unicode, asked cold and again,
 * alone and with another filter.
 */
import { readFileSync } from "node:fs";
import { BusinessSchema } from "@riverbend/shared/schemas/business.ts";
import { compareNewestFirst } from "@riverbend/shared/schemas/dataset.ts";
import { foldText } from "@riverbend/shared/search/fold.ts";
import { forEachMatch, matchFilters } from "@riverbend/shared/search/match.ts";
import { buildSearchIndex } from "@riverbend/shared/search/search-index.ts";
import { foldedReviewText } from "@riverbend/shared/search/write-index.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aggregateRating } from "../src/reviews-document/aggregate.ts";
import { generateReviews } from "../src/synth/generate.ts";
import { SEED } from "./support/api-server.ts";

const business = BusinessSchema.parse(JSON.parse(readFileSync("data/business.json", "utf8")));
// Synthetic reviews, some of them rewritten with accents, digits, other scripts and case mappings
// that change length (İ lower-cases to i and a combining dot).
const UNUSUAL = [
  "Crème brûlée café: MÜLLER fixed the 2nd-floor drain in 45 min!",
  "İstanbul-born plumber, ΣΊΣΥΦΟΣ of pipes; naïve résumé… 東京 配管 👍🏽 done",
  "water-heater/boiler swap (50 gal → 40 gal), co₂ alarm OK",
];
const reviews = [...generateReviews(business, { reviews: 1500, seed: 11, endDate: "2026-11-01", years: 2 })]
  .sort(compareNewestFirst)
  .map((review, i) => (i % 97 === 0 ? { ...review, text: UNUSUAL[i % UNUSUAL.length] as string } : review));
const folded = reviews.map(foldedReviewText);
const texts = reviews.slice(0, 300).map((r) => `${r.title ?? ""} ${r.text}`);

const needleArb: fc.Arbitrary<string> = fc.oneof(
  // A cut of a real text, 1 to 12 characters, inside a word or across words and punctuation.
  fc
    .tuple(fc.constantFrom(...texts, ...UNUSUAL), fc.nat(), fc.integer({ min: 1, max: 12 }))
    .map(([text, at, length]) => text.slice(at % text.length, (at % text.length) + length)),
  // A whole word of a text, in upper case.
  fc.constantFrom(...texts.flatMap((t) => t.split(/\s+/)).slice(0, 400)).map((w) => w.toUpperCase()),
  fc.constantFrom(
    "İSTANBUL",
    "istanbul",
    "stanbul",
    "σίσυφος",
    "Brulee",
    "CO2",
    "co₂",
    "東京",
    "👍",
    "zzqx",
    "a",
    "45",
  ),
  fc.string({ minLength: 1, maxLength: 6 }),
);

const naive = (needle: string) => folded.flatMap((text, p) => (text.includes(foldText(needle)) ? [p] : []));

function indexed(index: ReturnType<typeof buildSearchIndex>, needle: string, alongside = {}): number[] {
  const positions: number[] = [];
  forEachMatch(matchFilters(index, { query: needle, ...alongside }), (p) => {
    positions.push(p);
    return true;
  });
  return positions;
}

describe("the text index", () => {
  it("returns exactly what a scan of every folded review returns, cold and when asked again", () => {
    const index = buildSearchIndex({ business, aggregate_rating: aggregateRating(reviews), reviews }, "text");
    fc.assert(
      fc.property(needleArb, (needle) => {
        fc.pre(foldText(needle).length > 0 && !needle.includes("\u0000"));
        const expected = naive(needle);
        // With another filter (one every review passes) the needle is tested on that filter's
        // candidates; alone, its confirmed matches are kept for the next query.
        expect(indexed(index, needle, { min_rating: 1 })).toEqual(expected);
        expect(indexed(index, needle, { min_rating: 1 })).toEqual(expected);
        expect(indexed(index, needle)).toEqual(expected);
        expect(indexed(index, needle)).toEqual(expected);
      }),
      { seed: SEED, numRuns: 1500 },
    );
  });
});
