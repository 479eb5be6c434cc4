import type { AspectId, EvidenceSpan } from "@riverbend/shared/schemas/analysis.ts";
import type { Quote, Topic } from "@riverbend/shared/schemas/insights.ts";
import type { TopicCatalogue } from "@riverbend/shared/schemas/insights-data.ts";
import type { AnalysedReview } from "../analysed-review.ts";
import { type Permalink, quotable, toQuote } from "../aspects/evidence.ts";
import { PHRASE_WIDTH } from "../cache/codec.ts";
import type { Thresholds } from "../thresholds.ts";
import { type CompiledTopic, compileTopics } from "./match-topics.ts";

const CLAUSE = ["positive", "negative", "neutral"] as const;

/** A published topic and every review on it, as positions in the items (newest first): its listing pages. */
export interface TopicListing {
  id: string;
  label: string;
  reviews: readonly number[];
}

interface Tally {
  reviews: number[];
  sentiment: { positive: number; negative: number; neutral: number; mixed: number };
  aspects: Map<AspectId, number>;
}

/** The newest clause of the topic with the wanted polarity that fits in a quote. */
function quoteFor(
  items: readonly AnalysedReview[],
  indices: readonly number[],
  topic: CompiledTopic,
  polarity: "positive" | "negative",
  thresholds: Thresholds,
  permalink: Permalink,
): Quote | undefined {
  for (const index of indices) {
    const item = items[index] as AnalysedReview;
    for (const judgement of item.analysis.aspects) {
      if (!topic.aspects.has(judgement.aspect)) continue;
      const span = judgement.evidence.find(
        (s: EvidenceSpan) =>
          s.polarity === polarity &&
          quotable(s, item.review.text, thresholds) &&
          topic.regex.test(item.review.text.slice(s.start, s.end)),
      );
      if (span) return toQuote(item.review, judgement.aspect, span, permalink);
    }
  }
  return undefined;
}

/**
 * Topics customers weigh, from the mentions the per-review step found (match-topics.ts): each with the
 * reviews that mention it, the sentiment split (a review counts once: mixed when its clauses on the topic
 * go both ways), the newest positive and negative quote, and review ids newest first. Shown from
 * topic_min_reviews reviews on, most mentioned first (ties: catalogue order), at most max_topics.
 */
export function rankTopics(
  items: readonly AnalysedReview[],
  catalogue: TopicCatalogue,
  thresholds: Thresholds,
  permalink: Permalink,
): { topics: Topic[]; listings: TopicListing[] } {
  const topics = compileTopics(catalogue);
  const tallies = new Map<string, Tally>(
    topics.map((t) => [
      t.id,
      { reviews: [], sentiment: { positive: 0, negative: 0, neutral: 0, mixed: 0 }, aspects: new Map() },
    ]),
  );
  items.forEach((item, index) => {
    const words = item.encoded[2];
    if (words.length === 0) return;
    const seen = new Map<string, { pos: boolean; neg: boolean }>();
    for (let w = 0; w < words.length; w += PHRASE_WIDTH) {
      const id = words[w] as string;
      const tally = tallies.get(id);
      if (!tally) continue;
      const polarity = CLAUSE[words[w + 2] as number];
      const state = seen.get(id) ?? { pos: false, neg: false };
      state.pos ||= polarity === "positive";
      state.neg ||= polarity === "negative";
      seen.set(id, state);
    }
    for (const [id, state] of seen) {
      const tally = tallies.get(id) as Tally;
      tally.reviews.push(index);
      const key = state.pos && state.neg ? "mixed" : state.pos ? "positive" : state.neg ? "negative" : "neutral";
      tally.sentiment[key] += 1;
    }
  });
  const label = new Map(catalogue.topics.map((t) => [t.id, t]));
  const shown = topics
    .map((topic, order) => ({ topic, order, tally: tallies.get(topic.id) as Tally }))
    .filter(({ tally }) => tally.reviews.length >= thresholds.topic_min_reviews)
    .sort((a, b) => b.tally.reviews.length - a.tally.reviews.length || a.order - b.order)
    .slice(0, thresholds.max_topics);
  const listings = shown.map(({ topic, tally }) => ({
    id: topic.id,
    label: label.get(topic.id)?.label ?? topic.id,
    reviews: tally.reviews,
  }));
  const published = shown.map(({ topic, tally }): Topic => {
    const definition = label.get(topic.id);
    const quotes = (["negative", "positive"] as const)
      .map((p) => quoteFor(items, tally.reviews, topic, p, thresholds, permalink))
      .filter((q): q is Quote => q !== undefined);
    return {
      id: topic.id,
      phrase: definition?.label ?? topic.id,
      aspects: definition?.aspects ?? [],
      reviews: tally.reviews.length,
      ...tally.sentiment,
      quotes,
      review_ids: tally.reviews
        .slice(0, thresholds.topic_review_ids)
        .map((i) => (items[i] as AnalysedReview).review.id),
    };
  });
  return { topics: published, listings };
}
