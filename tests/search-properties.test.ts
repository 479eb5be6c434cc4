/**
 * Property tests of the search service: it is compared with a naive filter + sort + slice
 * (tests/support/search-reference.ts), and the HTTP decoder is fed random invalid query strings.
 * Runs are reproducible: see FC_SEED in tests/support/search-arbitraries.ts.
 */

import { SearchResponseSchema } from "@riverbend/shared/schemas/search.ts";
import { InvalidRequestError } from "@riverbend/shared/search/errors.ts";
import { searchReviews } from "@riverbend/shared/search/search-reviews.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dateArb, runs, validParamsArb } from "./support/search-arbitraries.ts";
import { fromQuery, ids, index, SORTS, walk } from "./support/search-fixture.ts";
import { naiveIds, toQueryString } from "./support/search-reference.ts";

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
