/**
 * Seed and generators shared by the property tests (fast-check) in tests/properties-*.test.ts.
 *
 * Runs are reproducible: every property uses FC_SEED (default below); set FC_SEED to explore others.
 */
import fc from "fast-check";

const SEED = Number(process.env.FC_SEED ?? 20261101);
export const runs = (numRuns?: number): fc.Parameters<unknown> => ({ seed: SEED, ...(numRuns ? { numRuns } : {}) });

/** Strings that break naive escaping, splitting or truncation. */
const NASTY = [
  "<",
  ">",
  "&",
  '"',
  "'",
  "&amp;",
  "&lt;",
  "&#39;",
  "]]>",
  "<![CDATA[",
  "</p>",
  "<script>",
  "<br>",
  "\n",
  "\n\n",
  "\n \n",
  "\r\n",
  " ",
  "\t",
  "\u00a0",
  "\u2028",
  "\u0085",
  "\ufeff",
  "é",
  "🎉",
  "👍🏽",
  "🇺🇸",
  "👩‍👩‍👧",
];

/** One unit of text: mostly printable graphemes, often a nasty string, sometimes any code point. */
export const textUnit = fc.oneof(
  { arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }), weight: 4 },
  { arbitrary: fc.constantFrom(...NASTY), weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 1 },
);
export const text = (maxLength: number) => fc.string({ unit: textUnit, minLength: 1, maxLength });

/** A calendar date YYYY-MM-DD between two years, inclusive. */
export const isoDate = (fromYear: number, toYear: number) =>
  fc
    .date({ min: new Date(Date.UTC(fromYear, 0, 1)), max: new Date(Date.UTC(toYear, 11, 31)), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
