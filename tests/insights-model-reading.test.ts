/**
 * The learned layer reads a clause at inference exactly as training named it: the classifier looks words,
 * negated words and word pairs up by number, training by name, and both must give the same features.
 */
import { readFileSync } from "node:fs";
import { ASPECT_IDS } from "@riverbend/shared/schemas/analysis.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAnalyzer, loadLexicon } from "../src/insights/analysis/analyze-review.ts";
import { compileLexicon } from "../src/insights/analysis/compile.ts";
import type { ClauseScore } from "../src/insights/analysis/score-clause.ts";
import type { Tokens } from "../src/insights/analysis/tokens.ts";
import { ClauseClassifier } from "../src/insights/model/classify.ts";
import { CLASSES, loadModel, WEIGHTS_FILE, type WeightsFile } from "../src/insights/model/clause-model.ts";
import { readFeatures } from "../src/insights/model/features.ts";

const { lexicon } = loadLexicon();
const lex = compileLexicon(lexicon);
const model = loadModel();
const analyzer = createAnalyzer(lexicon, { model });
const weights = JSON.parse(readFileSync(WEIGHTS_FILE, "utf8")) as WeightsFile;
const vocabulary = new Map(weights.vocabulary.map((name, i) => [name, i]));
const K = CLASSES.length;

/** The readings training's arithmetic gives a clause: bias, the weights of its named features, its mean vector. */
function referenceReadings(names: string[], vector: Float32Array) {
  const distinct = [...new Set(names)].map((n) => vocabulary.get(n)).filter((i) => i !== undefined);
  return ASPECT_IDS.flatMap((aspect) => {
    const w = weights.aspects[aspect] as WeightsFile["aspects"]["price"];
    const z = CLASSES.map((_, k) => {
      let sum = w.bias[k] as number;
      for (const f of distinct) sum += w.sparse[f * K + k] as number;
      vector.forEach((x, d) => {
        sum += x * (w.dense[d * K + k] as number);
      });
      return sum;
    });
    const top = Math.max(...z);
    return top > weights.threshold ? [{ aspect, k: z.indexOf(top), top }] : [];
  });
}

const reviews = ["dev", "heldout-2"].flatMap((set) =>
  readFileSync(`tests/fixtures/insights/${set}.jsonl`, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { id: string; text: string; rating?: number }),
);

describe("the learned layer at inference", () => {
  it("reads every clause of two labelled sets as the sum of the weights of the features training names for it", () => {
    const classifier = new ClauseClassifier(model);
    let clauses = 0;
    let judged = 0;
    for (const review of reviews) {
      const { tokens, clauses: list, scores } = analyzer.readContext(review.text, review.rating);
      const named = analyzer.features(review.text, review.rating);
      list.forEach((clause, c) => {
        classifier.reset();
        readFeatures(tokens, clause, scores[c] as ClauseScore, review.rating, lex, model.vectors, classifier);
        const got = classifier.read();
        const { names, vector } = named[c] as { names: string[]; vector: Float32Array };
        const expected = referenceReadings(names, vector);
        // Float32 weights at inference: a logit within a hair of the threshold may fall either way.
        const certain = (aspect: string) =>
          !expected.some((e) => e.aspect === aspect && Math.abs(e.top - weights.threshold) < 1e-3);
        expect(got.filter((r) => certain(r.aspect)).map((r) => [r.aspect, r.polarity])).toEqual(
          expected.filter((e) => certain(e.aspect)).map((e) => [e.aspect, CLASSES[e.k]]),
        );
        for (const r of got) {
          const e = expected.find((x) => x.aspect === r.aspect);
          const sign = r.polarity === "positive" ? 1 : r.polarity === "negative" ? -1 : 0;
          if (e) expect(r.margin).toBeCloseTo(sign * e.top, 3);
        }
        clauses++;
        judged += got.length;
      });
    }
    // The sets exercise the layer: well over a thousand clauses, most of them judging something.
    expect(clauses).toBeGreaterThan(1000);
    expect(judged).toBeGreaterThan(clauses / 2);
  });
});

/** The scope as the guideline defines it, read backwards from each word. */
function negatedByDefinition(tokens: Tokens, first: number, i: number): boolean {
  for (let j = i - 1; j >= Math.max(first, i - lex.settings.negation_window); j--) {
    if (tokens.punct[j] === 1 || lex.scopeBreakers.has(tokens.normal[j] as string)) return false;
    if (lex.negators.has(tokens.normal[j] as string) || tokens.lemma[j] === "not") return true;
  }
  return false;
}

describe("a word inside a negation scope", () => {
  const words = ["not", "never", "no", "and", "but", "then", "late", "rude", "the", "truck", "was", "on", "time", ","];

  it("is one a negator stands at most four words before, with no punctuation or scope breaker between", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 14 }), (picked) => {
        const text = `The ${picked.join(" ")} today.`;
        const { tokens, clauses } = analyzer.readContext(text, 3);
        const named = analyzer.features(text, 3);
        clauses.forEach((clause, c) => {
          const expected: string[] = [];
          for (let i = clause.first; i < clause.last; i++) {
            if (tokens.punct[i] === 1) continue;
            const neg = negatedByDefinition(tokens, clause.first, i);
            expected.push(`${neg ? "w:!" : "w:"}${tokens.lemma[i]}`);
          }
          const got = (named[c]?.names ?? []).filter((n) => n.startsWith("w:"));
          expect(got).toEqual(expected);
        });
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it.each([
    ["The tech was not late.", "w:!late"],
    ["Never once late.", "w:!late"],
    ["Not, late.", "w:late"],
    ["No one was rude and late.", "w:late"],
    ["Not at all on the late side.", "w:late"],
  ])("%s reads %s", (text, name) => {
    expect(analyzer.features(text, 4).flatMap((c) => c.names)).toContain(name);
  });
});
