import {
  ASPECT_IDS,
  type AspectId,
  type LabelledReview,
  type ReviewAnalysis,
} from "@riverbend/shared/schemas/analysis.ts";

/** Counts for one aspect, or for all of them. A pair is (review, aspect). */
export interface Counts {
  /** Pairs both predicted and labelled. */
  tp: number;
  /** Pairs predicted but not labelled. */
  fp: number;
  /** Pairs labelled but not predicted. */
  fn: number;
  /** Detected pairs whose predicted polarity equals the label. */
  polarityCorrect: number;
  /** Detected pairs predicted positive or negative. */
  polarCalls: number;
  /** Of those, the ones whose label is that same polarity. */
  polarCorrect: number;
  /** Pairs labelled positive or negative (detected or not). */
  polarLabels: number;
  /** Of those, the ones predicted with the opposite polarity (positive for negative or the reverse). */
  opposite: number;
}

export interface Scores {
  n: number;
  precision: number;
  recall: number;
  f1: number;
  polarity_accuracy: number;
  polar_precision: number;
  /** Opposite-polarity rate: positive labels predicted negative and the reverse, over positive and negative labels. */
  opposite_rate: number;
}

const empty = (): Counts => ({
  tp: 0,
  fp: 0,
  fn: 0,
  polarityCorrect: 0,
  polarCalls: 0,
  polarCorrect: 0,
  polarLabels: 0,
  opposite: 0,
});

/** A ratio with an empty denominator is reported as 0, so a silent analyser cannot score well. */
const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

export function count(gold: readonly LabelledReview[], predicted: readonly ReviewAnalysis[]): Map<AspectId, Counts> {
  const byAspect = new Map<AspectId, Counts>(ASPECT_IDS.map((a) => [a, empty()]));
  gold.forEach((review, i) => {
    const analysis = predicted[i];
    const said = new Map(analysis?.aspects.map((a) => [a.aspect, a.polarity]) ?? []);
    for (const aspect of ASPECT_IDS) {
      const c = byAspect.get(aspect) as Counts;
      const label = review.aspects[aspect];
      const guess = said.get(aspect);
      if (label === undefined && guess === undefined) continue;
      if (label === "positive" || label === "negative") {
        c.polarLabels++;
        if (guess === (label === "positive" ? "negative" : "positive")) c.opposite++;
      }
      if (label === undefined) c.fp++;
      else if (guess === undefined) c.fn++;
      else {
        c.tp++;
        if (guess === label) c.polarityCorrect++;
        // polar_precision: among detected pairs the analyser called positive or negative, the share whose
        // label is exactly that polarity (a "mixed" or "neutral" label counts against the call).
        if (guess === "positive" || guess === "negative") {
          c.polarCalls++;
          if (guess === label) c.polarCorrect++;
        }
      }
    }
  });
  return byAspect;
}

export function total(byAspect: ReadonlyMap<AspectId, Counts>): Counts {
  const t = empty();
  for (const c of byAspect.values()) {
    for (const key of Object.keys(t) as (keyof Counts)[]) t[key] += c[key];
  }
  return t;
}

export function scores(c: Counts, n: number): Scores {
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  return {
    n,
    precision,
    recall,
    f1: ratio(2 * precision * recall, precision + recall),
    polarity_accuracy: ratio(c.polarityCorrect, c.tp),
    polar_precision: ratio(c.polarCorrect, c.polarCalls),
    opposite_rate: ratio(c.opposite, c.polarLabels),
  };
}

export function rounded(s: Scores): Scores {
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    n: s.n,
    precision: r(s.precision),
    recall: r(s.recall),
    f1: r(s.f1),
    polarity_accuracy: r(s.polarity_accuracy),
    polar_precision: r(s.polar_precision),
    opposite_rate: r(s.opposite_rate),
  };
}
