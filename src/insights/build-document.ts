import type { Business } from "@riverbend/shared/schemas/business.ts";
import type { InsightsDocument } from "@riverbend/shared/schemas/insights.ts";
import type { AnalysedReview } from "./analysed-review.ts";
import { buildAspects } from "./aspects/build-aspects.ts";
import type { Permalink } from "./aspects/evidence.ts";
import { Judgements } from "./aspects/judgements.ts";
import type { EditorData } from "./editor/load-editor-data.ts";
import { buildEntities } from "./entities/build-entities.ts";
import { type EditorProblem, mergeFaq } from "./faq/build-faq.ts";
import type { Figures } from "./faq/check-numbers.ts";
import { computedFaq } from "./faq/computed-faq.ts";
import { emergencyAnswer } from "./faq/emergency-answer.ts";
import { buildSummary } from "./summary/build-summary.ts";
import type { Thresholds } from "./thresholds.ts";
import type { TopicListing } from "./topics/rank-topics.ts";
import { rankTopics } from "./topics/rank-topics.ts";

export interface DocumentInput {
  business: Business;
  /** Newest first, as the dataset holds them. */
  items: readonly AnalysedReview[];
  editor: Omit<EditorData, "files">;
  method: { version: string; lexicon_version: string; lexicon_hash: string; model_version: string; model_hash: string };
  thresholds: Thresholds;
  permalink: Permalink;
}

export interface DocumentResult {
  document: InsightsDocument;
  /** For the editor, by file: literal numbers the figures contradict, a stale summary. Never a failed build. */
  warnings: { faq: EditorProblem[]; summary: EditorProblem[] };
  /** Every review of each published topic, as positions in `items`: the review browser's topic pages. */
  topicListings: TopicListing[];
}

/** The whole /insights.json from analysed reviews and editor data: pure, no clock, same input, same output. */
export function buildDocument(input: DocumentInput): DocumentResult {
  const { business, items, editor, thresholds } = input;
  const count = items.length;
  const first = items.at(-1)?.review.date ?? null;
  const last = items[0]?.review.date ?? null;
  const judgements = new Judgements(items);
  const aspects = buildAspects(judgements, thresholds, input.permalink);
  const entities = buildEntities(business, editor.entities, judgements, thresholds);
  const { topics, listings: topicListings } = rankTopics(items, editor.topics, thresholds, input.permalink);
  const figures: Figures = {
    aspects: new Map(aspects.map((a) => [a.id, a])),
    reviewCount: count,
    reviewsWithText: count,
  };
  const faq = mergeFaq(
    computedFaq(
      business,
      aspects,
      entities,
      last,
      thresholds,
      emergencyAnswer(business, items, thresholds, input.permalink),
    ),
    editor.faq,
    aspects,
    figures,
  );
  const summary = buildSummary(editor.summary, aspects, topics, { count, first, last }, figures, thresholds);
  const span = first && last ? `, ${first} to ${last}` : "";
  const document: InsightsDocument = {
    as_of: last,
    review_count: count,
    reviews_with_text: count,
    method: {
      ...input.method,
      thresholds: { ...thresholds },
      suspected_sarcasm_reviews: items.filter((i) => i.hasSuspectedSarcasm).length,
    },
    disclosure: `Figures are extracted automatically from ${count} reviews${span} by a rule-based analyser that abstains when unsure; counts are reviews, not customers, and every quote links to its review.`,
    aspects,
    entities,
    topics,
    faq: faq.faq,
    summary: summary.summary,
  };
  return {
    document,
    warnings: { faq: faq.warnings, summary: summary.warnings },
    topicListings,
  };
}
