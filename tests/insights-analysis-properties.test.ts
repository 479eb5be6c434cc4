/**
 * Properties of every analysis: evidence spans are exact, trimmed quotes and an aspect's polarity
 * follows its evidence; the same input gives the same analysis, alone or among others; the lexicon hash
 * follows content only.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ReviewAnalysis } from "@riverbend/shared/schemas/analysis.ts";
import { ReviewAnalysisSchema } from "@riverbend/shared/schemas/analysis.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAnalyzer, lexiconHash, loadLexicon } from "../src/insights/analysis/analyze-review.ts";
import { analyzer, loaded, SENTENCES } from "./support/insights-analysis-fixture.ts";

describe("aspect analysis: evidence spans", () => {
  it("quotes exact, trimmed substrings of any text built from review sentences", () => {
    const text = fc
      .tuple(
        fc.array(fc.constantFrom(...SENTENCES), { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom(" ", "\n\n", "  ", "\n"), { minLength: 8, maxLength: 8 }),
        fc.constantFrom("", " ", "\n"),
      )
      .map(([sentences, gaps, lead]) => lead + sentences.map((s, i) => s + gaps[i]).join(""));
    fc.assert(
      fc.property(text, fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }), (t, rating) => {
        const r = ReviewAnalysisSchema.parse(analyzer.analyze(t, rating));
        const spans = [...r.aspects.flatMap((a) => a.evidence), ...r.suspected_sarcasm];
        for (const { start, end } of spans) {
          expect(start).toBeGreaterThanOrEqual(0);
          expect(end).toBeLessThanOrEqual(t.length);
          const quote = t.slice(start, end);
          expect(quote.length).toBeGreaterThan(0);
          expect(quote).toBe(quote.trim());
        }
        for (const a of r.aspects) {
          const polarities = new Set(a.evidence.map((e) => e.polarity));
          const pos = polarities.has("positive");
          const neg = polarities.has("negative");
          // Mixed means judged both ways; a neutral clause next to a polar one leaves the polar reading.
          const expected = pos && neg ? "mixed" : pos ? "positive" : neg ? "negative" : "neutral";
          expect(a.polarity).toBe(expected);
        }
      }),
      { numRuns: 200, seed: 42 },
    );
  });

  it("quotes whole clauses, without the contrast marker", () => {
    const text = "Kevin was polite, but the price was steep.";
    const r = analyzer.analyze(text);
    const quotes = r.aspects.flatMap((a) => a.evidence.map((e) => text.slice(e.start, e.end)));
    expect(quotes.sort()).toEqual(["Kevin was polite", "the price was steep."]);
  });
});

describe("aspect analysis: determinism and the lexicon", () => {
  it("gives the same analysis every time and from a fresh analyser", () => {
    const text = SENTENCES.slice(0, 40).join(" ");
    const first: ReviewAnalysis = analyzer.analyze(text, 3);
    expect(analyzer.analyze(text, 3)).toEqual(first);
    expect(createAnalyzer(loadLexicon().lexicon).analyze(text, 3)).toEqual(first);
  });

  it("analyses a list of reviews stage by stage as it analyses each of them alone", () => {
    const review = fc.record({
      text: fc.array(fc.constantFrom(...SENTENCES), { minLength: 1, maxLength: 6 }).map((s) => s.join(" ")),
      rating: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(review, { minLength: 1, maxLength: 12 }), (reviews) => {
        const alone = reviews.map((r) => analyzer.analyze(r.text, r.rating));
        expect(analyzer.analyzeAll(reviews)).toEqual(alone);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it("hashes the lexicon content, not its formatting", () => {
    expect(loaded.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(loaded.version).toMatch(/^aspects@\d+\.\d+\.\d+\+/);
    const copy = structuredClone(loaded.lexicon);
    expect(lexiconHash(copy)).toBe(loaded.hash);
    copy.valence.words.great = 1;
    expect(lexiconHash(copy)).not.toBe(loaded.hash);
  });

  it("rejects an invalid lexicon file with its path", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lexicon-"));
    for (const f of ["aspects.json", "valence.json", "idioms.json", "settings.json"]) {
      writeFileSync(path.join(dir, f), readFileSync(path.join("data/insights/lexicon", f)));
    }
    writeFileSync(path.join(dir, "settings.json"), JSON.stringify({ version: "1.0.0", threshold: -1 }));
    expect(() => loadLexicon(dir)).toThrow(/settings\.json is not a valid lexicon file/);
  });
});
