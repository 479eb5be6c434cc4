import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createAnalyzer, loadLexicon } from "../src/insights/analysis/analyze-review.ts";
import { evaluate } from "../src/insights/eval/evaluate.ts";
import { parseLabelled } from "../src/insights/eval/read-labelled.ts";

// Regression sets. heldout-2 was written by two people who never saw the analyser; the learned layer is not
// trained on it and nobody tunes on it. heldout-1 and dev are training data of the learned layer (in-sample).
const SETS = ["heldout-2", "heldout-1", "dev"] as const;
const record = JSON.parse(readFileSync("tests/fixtures/insights/recorded-scores.json", "utf8")) as Record<
  (typeof SETS)[number],
  { file: string; scores: Record<string, number> }
>;
const analyzer = createAnalyzer(loadLexicon().lexicon);

describe.each(SETS)("aspect analyser on the %s set", (set) => {
  const { file, scores: recorded } = record[set];
  const gold = parseLabelled(readFileSync(file, "utf8"), file);
  const { overall } = evaluate(analyzer, gold);

  it("scores the whole file", () => {
    expect(overall.n).toBe(recorded.n);
  });

  it.each(["precision", "recall", "f1", "polarity_accuracy", "polar_precision"] as const)(
    "does not drop below the recorded %s",
    (metric) => {
      expect(overall[metric]).toBeGreaterThanOrEqual(recorded[metric] as number);
    },
  );

  it("does not publish more opposite polarities than recorded", () => {
    expect(overall.opposite_rate).toBeLessThanOrEqual(recorded.opposite_rate as number);
  });
});
