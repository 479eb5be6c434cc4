/**
 * Generators for the search property tests. Runs are reproducible: every property uses FC_SEED
 * (default below); set FC_SEED to explore others.
 */
import fc from "fast-check";
import { dataset, REVIEWS, SORTS } from "./search-fixture.ts";
import type { NaiveParams } from "./search-reference.ts";

const SEED = Number(process.env.FC_SEED ?? 20261101);
export const runs = (numRuns?: number): fc.Parameters<unknown> => ({ seed: SEED, ...(numRuns ? { numRuns } : {}) });

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
      const source = (useTitle && review.title) || review.text || "";
      const from = start % source.length;
      const cut = source.slice(from, from + length);
      return [...cut]
        .map((c, i) => (upper[i % Math.max(1, upper.length)] ? c.toUpperCase() : c.toLowerCase()))
        .join("");
    })
    .filter((text) => text.length > 0 && !text.includes("\n")),
);

const TECHNICIAN_KEYS = dataset.business.technicians.flatMap((t) => [t.id, t.name, t.name.split(" ")[0] ?? t.name]);
const technicianArb = fc.oneof({
  weight: 5,
  arbitrary: fc.tuple(fc.constantFrom(...TECHNICIAN_KEYS), fc.boolean()).map(([k, up]) => (up ? k.toUpperCase() : k)),
});
const SERVICE_IDS = dataset.business.services.map((s) => s.id);
const serviceArb = fc.oneof({
  weight: 5,
  arbitrary: fc.tuple(fc.constantFrom(...SERVICE_IDS), fc.boolean()).map(([id, up]) => (up ? id.toUpperCase() : id)),
});
export const dateArb = fc
  .date({ min: new Date("2023-12-01T00:00:00Z"), max: new Date("2026-12-31T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const DATA_DATES = [...new Set(REVIEWS.map((r) => r.date))];
const anyDateArb = fc.oneof(dateArb, fc.constantFrom(...DATA_DATES));

/** Present about one time in four, so that combinations still match something. */
const sometimes = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

export const validParamsArb: fc.Arbitrary<NaiveParams> = fc
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
