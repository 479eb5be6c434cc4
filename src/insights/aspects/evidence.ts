import type { AspectId, AspectPolarity, EvidenceSpan } from "@riverbend/shared/schemas/analysis.ts";
import type { Quote } from "@riverbend/shared/schemas/insights.ts";
import type { TextReview as Review } from "@riverbend/shared/schemas/review.ts";
import type { AnalysedReview } from "../analysed-review.ts";
import { LUKEWARM_CUE } from "../analysis/lukewarm.ts";
import { GATED_CUE_PREFIX } from "../analysis/quote-gates.ts";
import type { Thresholds } from "../thresholds.ts";
import type { Judgements } from "./judgements.ts";

export type Permalink = (reviewId: string) => string;

/** The span as a quote, without the whitespace a clause boundary may leave at either end. */
export function toQuote(review: Review, aspect: AspectId, span: EvidenceSpan, permalink: Permalink): Quote {
  let { start, end } = span;
  while (start < end && /\s/.test(review.text[start] ?? "")) start += 1;
  while (end > start && /\s/.test(review.text[end - 1] ?? "")) end -= 1;
  return {
    review_id: review.id,
    url: permalink(review.id),
    date: review.date,
    rating: review.rating,
    text: review.text.slice(start, end),
    start,
    end,
    polarity: span.polarity,
    aspect,
  };
}

/**
 * Whether a clause may be published as a quote: it fits, and the analyser is sure of it on its own. Counting
 * and quoting are separate decisions: a review counts for an aspect from any reading over the detection
 * threshold, but only a clause that itself carries the aspect and polarity strongly stands for it.
 */
export function quotable(span: EvidenceSpan, text: string, thresholds: Thresholds): boolean {
  if (span.end - span.start > thresholds.max_quote_chars || span.end > text.length) return false;
  if (span.polarity === "neutral") return span.cue === LUKEWARM_CUE;
  // What the model generalises to it may count, but a quote must say it plainly (analysis/quote-gates.ts).
  if (span.cue.startsWith(GATED_CUE_PREFIX)) return false;
  return logOdds(span) >= thresholds.quote_min_margin;
}

/**
 * The learned layer's log-odds of the span's polarity over "does not judge the aspect" (the score is signed
 * by polarity). Below a detection threshold under 0 a counted reading has negative log-odds: never a quote.
 */
function logOdds(span: EvidenceSpan): number {
  return span.polarity === "negative" ? -span.score : span.score;
}

/**
 * The clause that stands for the review in a bucket: the one the analyser is surest of (largest margin;
 * ties: first in text order) that fits in a quote, so a quote says most plainly what it is published for.
 */
function spanFor(
  item: AnalysedReview,
  aspect: AspectId,
  bucket: AspectPolarity,
  thresholds: Thresholds,
): EvidenceSpan | undefined {
  const judgement = item.analysis.aspects.find((j) => j.aspect === aspect);
  let best: EvidenceSpan | undefined;
  for (const span of judgement?.evidence ?? []) {
    const wanted = bucket === "mixed" ? span.polarity !== "neutral" : span.polarity === bucket;
    if (!wanted || !quotable(span, item.review.text, thresholds)) continue;
    if (!best || logOdds(span) > logOdds(best)) best = span;
  }
  return best;
}

interface Candidate {
  index: number;
  item: AnalysedReview;
  span: EvidenceSpan;
}

/**
 * Up to max_quotes quotes for one polarity bucket, by one rule for every bucket: one per review,
 * newest first, preferring reviews of technicians not quoted yet. A bucket with a single review
 * still gets its quote, so a rare concern is as visible as a common praise. Reviews are scanned
 * newest first and the scan stops once every quote has a technician of its own.
 */
export function selectEvidence(
  judgements: Judgements,
  aspect: AspectId,
  bucket: AspectPolarity,
  thresholds: Thresholds,
  permalink: Permalink,
): Quote[] {
  const max = thresholds.max_quotes;
  const chosen: Candidate[] = [];
  const spare: Candidate[] = [];
  const covered = new Set<string>();
  const polarityOf = judgements.reader(aspect);
  for (let index = 0; index < judgements.items.length && chosen.length < max; index++) {
    if (polarityOf(index) !== bucket) continue;
    const item = judgements.items[index] as AnalysedReview;
    const span = spanFor(item, aspect, bucket, thresholds);
    if (!span) continue;
    const crew = item.review.technicians.length > 0 ? item.review.technicians : [""];
    if (crew.some((name) => covered.has(name))) {
      if (spare.length < max) spare.push({ index, item, span });
      continue;
    }
    chosen.push({ index, item, span });
    for (const name of crew) covered.add(name);
  }
  const quoted = [...chosen, ...spare.slice(0, max - chosen.length)].sort((a, b) => a.index - b.index);
  return quoted.map((c) => toQuote(c.item.review, aspect, c.span, permalink));
}
