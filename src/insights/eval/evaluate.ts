import { ASPECT_IDS, type LabelledReview, type ReviewAnalysis } from "@riverbend/shared/schemas/analysis.ts";
import type { Analyzer } from "../analysis/analyze-review.ts";
import { type Counts, count, rounded, type Scores, scores, total } from "./metrics.ts";

export interface Evaluation {
  overall: Scores;
  byAspect: { aspect: string; counts: Counts; scores: Scores }[];
}

export function evaluate(
  analyzer: Analyzer,
  gold: readonly LabelledReview[],
  predicted: readonly ReviewAnalysis[] = gold.map((r) => analyzer.analyze(r.text, r.rating)),
): Evaluation {
  const byAspect = count(gold, predicted);
  return {
    overall: rounded(scores(total(byAspect), gold.length)),
    byAspect: ASPECT_IDS.map((aspect) => {
      const counts = byAspect.get(aspect) as Counts;
      return { aspect, counts, scores: rounded(scores(counts, gold.length)) };
    }),
  };
}

/** The per-aspect table, then the one-line JSON summary that tools read from the last line. */
export function formatEvaluation(e: Evaluation): string {
  const cell = (x: number) => x.toFixed(3).padStart(8);
  const lines = [
    `${"aspect".padEnd(16)} ${["tp", "fp", "fn"].map((h) => h.padStart(4)).join(" ")} ${["prec", "recall", "f1", "pol_acc", "polar_p", "opposite"].map((h) => h.padStart(9)).join("")}`,
  ];
  for (const { aspect, counts: c, scores: s } of e.byAspect) {
    const nums = [s.precision, s.recall, s.f1, s.polarity_accuracy, s.polar_precision, s.opposite_rate].map(
      (x) => ` ${cell(x)}`,
    );
    lines.push(
      `${aspect.padEnd(16)} ${[c.tp, c.fp, c.fn].map((x) => String(x).padStart(4)).join(" ")}${nums.join("")}`,
    );
  }
  lines.push(JSON.stringify(e.overall));
  return lines.join("\n");
}

/** One line per review for outsiders' own scoring: `{"id", "aspects": {aspect: polarity}}`, absent = not judged. */
export function predictionLines(gold: readonly LabelledReview[], predicted: readonly ReviewAnalysis[]): string {
  return gold
    .map((review, i) => {
      const aspects = Object.fromEntries((predicted[i]?.aspects ?? []).map((a) => [a.aspect, a.polarity]));
      return `${JSON.stringify({ id: review.id, aspects })}\n`;
    })
    .join("");
}
