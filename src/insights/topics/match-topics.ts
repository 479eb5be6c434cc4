import type { AspectId, ReviewAnalysis } from "@riverbend/shared/schemas/analysis.ts";
import type { TopicCatalogue } from "@riverbend/shared/schemas/insights-data.ts";
import type { PhraseMention } from "../analysed-review.ts";

export interface CompiledTopic {
  id: string;
  aspects: ReadonlySet<AspectId>;
  regex: RegExp;
}

/** One case-insensitive expression per topic, from its list of alternatives. */
export function compileTopics(catalogue: TopicCatalogue): CompiledTopic[] {
  return catalogue.topics.map((t) => ({
    id: t.id,
    aspects: new Set(t.aspects),
    regex: new RegExp(t.match.map((m) => `(?:${m})`).join("|"), "iu"),
  }));
}

/**
 * The topics a review speaks to: a topic is mentioned where a clause that judges one of its aspects
 * contains one of its phrases; the mention carries that clause's polarity for that aspect. An object noun
 * alone ("valve", "toilet") is never a topic: a topic is a judgement.
 */
export function matchTopics(text: string, analysis: ReviewAnalysis, topics: readonly CompiledTopic[]): PhraseMention[] {
  const out: PhraseMention[] = [];
  for (const judgement of analysis.aspects) {
    for (const span of judgement.evidence) {
      const clause = text.slice(span.start, span.end);
      for (const topic of topics) {
        if (!topic.aspects.has(judgement.aspect)) continue;
        const m = topic.regex.exec(clause);
        if (!m) continue;
        out.push({ lemma: topic.id, surface: m[0].toLowerCase(), polarity: span.polarity, aspect: judgement.aspect });
      }
    }
  }
  return out;
}
