import { ASPECT_IDS, type AspectId } from "../../schemas/analysis.ts";
import type { Topic } from "../../schemas/insights.ts";
import type { BackgroundFrequencies } from "../../schemas/insights-data.ts";
import type { AnalysedReview } from "../analysed-review.ts";
import { PHRASE_WIDTH } from "../cache/codec.ts";
import { containsName } from "../entities/names.ts";
import type { Thresholds } from "../thresholds.ts";

interface Candidate {
  lemma: string;
  reviewIds: string[];
  sentiment: { positive: number; negative: number; neutral: number; mixed: number };
  surfaces: Map<string, number>;
  aspects: Map<AspectId, number>;
}

export interface TopicFilters {
  /** Lemmas never shown as a topic head (plumber, job, time). */
  generic: ReadonlySet<string>;
  /** Lower-case words of entity names: a phrase with one of them is about a person or place. */
  names: ReadonlySet<string>;
}

function collect(items: readonly AnalysedReview[]): Map<string, Candidate> {
  const candidates = new Map<string, Candidate>();
  for (const item of items) {
    const seen = new Map<string, { pos: boolean; neg: boolean; aspects: Set<AspectId> }>();
    // The compact phrase array, read in place: [lemma, surface ("" = lemma), polarity, aspect] repeated.
    const words = item.encoded[2];
    for (let w = 0; w < words.length; w += PHRASE_WIDTH) {
      const lemma = words[w] as string;
      const surface = (words[w + 1] as string) || lemma;
      const polarity = words[w + 2] as number;
      const aspect = ASPECT_IDS[words[w + 3] as number];
      let candidate = candidates.get(lemma);
      if (!candidate) {
        candidate = {
          lemma,
          reviewIds: [],
          sentiment: { positive: 0, negative: 0, neutral: 0, mixed: 0 },
          surfaces: new Map(),
          aspects: new Map(),
        };
        candidates.set(lemma, candidate);
      }
      candidate.surfaces.set(surface, (candidate.surfaces.get(surface) ?? 0) + 1);
      const state = seen.get(lemma) ?? { pos: false, neg: false, aspects: new Set<AspectId>() };
      state.pos ||= polarity === 0;
      state.neg ||= polarity === 1;
      if (aspect) state.aspects.add(aspect);
      seen.set(lemma, state);
    }
    for (const [lemma, state] of seen) {
      const candidate = candidates.get(lemma) as Candidate;
      candidate.reviewIds.push(item.review.id);
      const key = state.pos && state.neg ? "mixed" : state.pos ? "positive" : state.neg ? "negative" : "neutral";
      candidate.sentiment[key] += 1;
      for (const aspect of state.aspects) candidate.aspects.set(aspect, (candidate.aspects.get(aspect) ?? 0) + 1);
    }
  }
  return candidates;
}

/**
 * How unusual the phrase is in general English: log of inverse background frequency. A two-word
 * phrase missing from the table is at least as rare as its rarer word ("water heater" as "heater").
 */
function specificity(lemma: string, background: BackgroundFrequencies): number {
  const idf = (word: string) => Math.log((background.total + 1) / (1 + (background.counts[word] ?? 0)));
  if (background.counts[lemma] !== undefined) return idf(lemma);
  return Math.max(...lemma.split(" ").map(idf));
}

const byCountThenText = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);

function toTopic(c: Candidate, thresholds: Thresholds): Topic {
  const [aspect, count] = [...c.aspects].sort(byCountThenText)[0] ?? [null, 0];
  return {
    phrase: [...c.surfaces].sort(byCountThenText)[0]?.[0] ?? c.lemma,
    lemma: c.lemma,
    reviews: c.reviewIds.length,
    ...c.sentiment,
    aspect: aspect && count * 2 >= c.reviewIds.length ? aspect : null,
    review_ids: c.reviewIds.slice(0, thresholds.topic_review_ids),
  };
}

/**
 * "People often mention": phrases in at least topic_min_reviews reviews and topic_min_share of
 * them, ranked by reviews x specificity against the background table. A single word is dropped
 * when a two-word phrase ending in it covers two thirds of its reviews ("heater" under "water heater").
 */
export function rankTopics(
  items: readonly AnalysedReview[],
  background: BackgroundFrequencies,
  filters: TopicFilters,
  thresholds: Thresholds,
): Topic[] {
  const floor = Math.max(thresholds.topic_min_reviews, Math.ceil(thresholds.topic_min_share * items.length));
  const kept = [...collect(items).values()].filter((c) => {
    const words = c.lemma.split(" ");
    return (
      c.reviewIds.length >= floor && !filters.generic.has(words.at(-1) ?? "") && !containsName(c.lemma, filters.names)
    );
  });
  const pairs = kept.filter((c) => c.lemma.includes(" "));
  const distinct = kept.filter((c) => {
    if (c.lemma.includes(" ")) return true;
    return !pairs.some((p) => p.lemma.endsWith(` ${c.lemma}`) && p.reviewIds.length * 3 >= c.reviewIds.length * 2);
  });
  const scored = distinct.map((c) => ({ c, score: c.reviewIds.length * specificity(c.lemma, background) }));
  scored.sort(
    (a, b) => b.score - a.score || b.c.reviewIds.length - a.c.reviewIds.length || (a.c.lemma < b.c.lemma ? -1 : 1),
  );
  return scored.slice(0, thresholds.max_topics).map(({ c }) => toTopic(c, thresholds));
}
