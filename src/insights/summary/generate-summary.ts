import type { AspectInsight, Quote, Summary, Topic } from "@riverbend/shared/schemas/insights.ts";
import { ASPECT_TEXT } from "../aspects/labels.ts";
import type { Thresholds } from "../thresholds.ts";

const noun = (a: AspectInsight) => ASPECT_TEXT[a.id].noun;
const reviews = (n: number) => `${n} ${n === 1 ? "review" : "reviews"}`;
const listed = (parts: readonly string[]) =>
  parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;

/**
 * The concerns: aspects judged negatively in summary_min_reviews reviews or more and in at least
 * concern_min_share of the reviews that mention them, by that share, highest first (ties: taxonomy order).
 */
export function concerns(aspects: readonly AspectInsight[], thresholds: Thresholds): AspectInsight[] {
  return aspects
    .filter(
      (a) => a.negative >= thresholds.summary_min_reviews && a.negative / a.mentions >= thresholds.concern_min_share,
    )
    .sort((a, b) => b.negative / b.mentions - a.negative / a.mentions);
}

/** What the complaints about one aspect are about: its topics with the most negative reviews, each with a quote. */
export function complaintGroups(aspect: AspectInsight, topics: readonly Topic[], thresholds: Thresholds) {
  return topics
    .filter((t) => t.aspects.includes(aspect.id) && t.negative + t.mixed >= thresholds.summary_min_reviews)
    .map((t) => ({ topic: t, quote: t.quotes.find((q) => q.polarity === "negative") }))
    .filter((g): g is { topic: Topic; quote: Quote } => g.quote !== undefined)
    .sort((a, b) => b.topic.negative + b.topic.mixed - (a.topic.negative + a.topic.mixed))
    .slice(0, 2);
}

function concernSentences(a: AspectInsight, topics: readonly Topic[], thresholds: Thresholds, evidence: Quote[]) {
  const mixed = a.mixed > 0 ? `, and ${a.mixed} mixed` : "";
  const out = [
    `${ASPECT_TEXT[a.id].label}: ${a.negative} of ${a.mentions} reviews that mention ${noun(a)} are negative${mixed}.`,
  ];
  const groups = complaintGroups(a, topics, thresholds);
  if (groups.length > 0) {
    out.push(
      `The complaints are mostly about ${listed(groups.map((g) => `${g.topic.phrase} (${reviews(g.topic.negative + g.topic.mixed)})`))}.`,
    );
    for (const g of groups) evidence.push(g.quote);
  } else {
    const quote = a.evidence.negative[0] ?? a.evidence.mixed[0];
    if (quote) evidence.push(quote);
  }
  return out;
}

/**
 * The fallback summary: every number is a computed figure with its denominator (one per sentence), every
 * claim a quote. Concerns come first, by share of negative judgements, each with what the complaints are
 * about; every concern that passes the threshold is named, however favourable the rest is. Then the two
 * aspects most often judged positively.
 */
export function generateSummary(
  aspects: readonly AspectInsight[],
  topics: readonly Topic[],
  range: { count: number; first: string | null; last: string | null },
  thresholds: Thresholds,
): Summary {
  if (range.count === 0 || !range.first || !range.last) {
    return { text: "No reviews yet.", source: "generated", as_of: null, evidence: [] };
  }
  const sentences = [`Based on ${reviews(range.count)} (${range.first} to ${range.last}).`];
  const evidence: Quote[] = [];
  const found = concerns(aspects, thresholds);
  if (found.length === 0) {
    sentences.push(`No aspect is judged negatively in ${thresholds.summary_min_reviews} or more reviews.`);
  } else {
    sentences.push(`${found.length === 1 ? "The main concern" : "The main concerns"}, by share of negative reviews:`);
    for (const a of found) sentences.push(...concernSentences(a, topics, thresholds, evidence));
  }
  const praised = aspects
    .filter((a) => a.share_positive !== null && a.positive >= thresholds.summary_min_reviews && !found.includes(a))
    .sort((a, b) => (b.wilson_lower ?? 0) - (a.wilson_lower ?? 0))
    .slice(0, 2);
  for (const a of praised) {
    sentences.push(`Praised: ${noun(a)}, positive in ${a.positive} of ${a.mentions} reviews that mention it.`);
    const quote = a.evidence.positive[0];
    if (quote) evidence.push(quote);
  }
  const unique = evidence.filter(
    (q, i) => evidence.findIndex((o) => o.review_id === q.review_id && o.start === q.start) === i,
  );
  return { text: sentences.join(" "), source: "generated", as_of: range.last, evidence: unique };
}
