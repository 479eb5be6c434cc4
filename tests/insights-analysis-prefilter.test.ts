/**
 * The idiom keyword prefilter: it skips a rule only when the rule cannot match, so it must never
 * change a result, only save time.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAnalyzer } from "../src/insights/analysis/analyze-review.ts";
import { compileScanner } from "../src/insights/analysis/keyword-scanner.ts";
import { requiredKeywords } from "../src/insights/analysis/prefilter.ts";
import { analyzer, loaded, SENTENCES } from "./support/insights-analysis-fixture.ts";

describe("idiom keyword prefilter", () => {
  const unfiltered = createAnalyzer(loaded.lexicon, { prefilter: false });
  const rules = loaded.lexicon.idioms.rules;

  it("derives keywords every match must contain", () => {
    expect(requiredKeywords("\\bno apology\\b")).toEqual([["no apology"]]);
    expect(requiredKeywords("\\b(?:was|were) (?:late|behind)")).toContainEqual(["behind", "late"]);
    // Optional parts, classes and lookarounds add nothing; a pattern with no usable literal always runs.
    expect(requiredKeywords("(?:very )?cheap(?! parts)")).toEqual([["cheap"]]);
    expect(requiredKeywords("\\d+ ?(?:x|y)")).toBeNull();
    expect(requiredKeywords("(a)\\1")).toBeNull();
    // Every rule of the lexicon is understood and gets a filter (a null would be safe, only slow).
    for (const r of rules) expect(requiredKeywords(r.regex), r.id).not.toBeNull();
  });

  it("finds exactly the keywords a substring search finds", () => {
    const keywords = ["call back", "back", "ack", "never", "a", "$5"];
    const scanner = compileScanner(keywords);
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z $5]{0,40}$/), fc.constantFrom(...SENTENCES), (noise, sentence) => {
        const text = `${noise}${sentence.toLowerCase()}`;
        const present = new Uint8Array(keywords.length);
        scanner.scan(text, present);
        expect([...present]).toEqual(keywords.map((k) => (text.includes(k) ? 1 : 0)));
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it("passes every rule on its own example, and each rule's keywords occur wherever the rule matches", () => {
    const texts = [...rules.map((r) => r.example.toLowerCase()), ...SENTENCES.map((s) => s.toLowerCase())];
    for (const r of rules) {
      const regex = new RegExp(r.regex, "u");
      const clauses = requiredKeywords(r.regex) ?? [];
      for (const t of texts) {
        if (!regex.test(t)) continue;
        for (const clause of clauses)
          expect(
            clause.some((k) => t.includes(k)),
            `${r.id}: ${t}`,
          ).toBe(true);
      }
    }
  });

  it("never changes a result: same analysis with and without it on real review text", () => {
    const reviews = readdirSync("data/reviews").map(
      (f) => JSON.parse(readFileSync(path.join("data/reviews", f), "utf8")) as { text: string; rating: number },
    );
    for (const r of reviews) expect(analyzer.analyze(r.text, r.rating)).toEqual(unfiltered.analyze(r.text, r.rating));
    const text = fc
      .tuple(fc.array(fc.constantFrom(...SENTENCES), { minLength: 1, maxLength: 6 }), fc.boolean())
      .map(([sentences, lower]) => (lower ? sentences.join(" ").toLowerCase() : sentences.join(" ")));
    fc.assert(
      fc.property(text, fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }), (t, rating) => {
        expect(analyzer.analyze(t, rating)).toEqual(unfiltered.analyze(t, rating));
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});
