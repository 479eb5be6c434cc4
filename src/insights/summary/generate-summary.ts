import type { AspectInsight, Quote, Summary } from "../../schemas/insights.ts";
import { ASPECT_TEXT } from "../aspects/labels.ts";
import type { Thresholds } from "../thresholds.ts";

const noun = (a: AspectInsight) => ASPECT_TEXT[a.id].noun;

function positiveClause(a: AspectInsight): string {
  return `${noun(a)} (${a.mentions} reviews: ${a.positive} positive, ${a.negative} negative)`;
}

/** The aspect with the most negative reviews, from summary_min_reviews on: ties go to the taxonomy order. */
export function mainConcern(aspects: readonly AspectInsight[], thresholds: Thresholds): AspectInsight | undefined {
  let best: AspectInsight | undefined;
  for (const a of aspects) {
    if (a.negative < thresholds.summary_min_reviews) continue;
    if (!best || a.negative > best.negative) best = a;
  }
  return best;
}

/**
 * The fallback summary: every number is a computed figure and every claim has a quote. The main
 * concern is always stated when one passes the threshold, however favourable the rest is, and its
 * absence is stated too.
 */
export function generateSummary(
  aspects: readonly AspectInsight[],
  range: { count: number; first: string | null; last: string | null },
  thresholds: Thresholds,
): Summary {
  if (range.count === 0 || !range.first || !range.last) {
    return { text: "No reviews yet.", source: "generated", as_of: null, evidence: [] };
  }
  const mentioned = [...aspects]
    .filter((a) => a.mentions >= thresholds.summary_min_reviews)
    .sort((a, b) => b.mentions - a.mentions)
    .slice(0, 2);
  const sentences = [`Based on ${range.count} reviews (${range.first} to ${range.last}).`];
  if (mentioned.length > 0) {
    sentences.push(`Customers most often mention ${mentioned.map(positiveClause).join(" and ")}.`);
  }
  const concern = mainConcern(aspects, thresholds);
  if (concern) {
    sentences.push(
      `The most common concern is ${noun(concern)}: ${concern.negative} of ${concern.mentions} reviews that mention it are negative.`,
    );
  } else {
    sentences.push(`No concern is raised in ${thresholds.summary_min_reviews} or more reviews.`);
  }
  const evidence = [...mentioned.map((a) => a.evidence.positive[0]), concern?.evidence.negative[0]].filter(
    (q): q is Quote => q !== undefined,
  );
  return { text: sentences.join(" "), source: "generated", as_of: range.last, evidence };
}
