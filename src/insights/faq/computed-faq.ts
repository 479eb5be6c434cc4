import type { Business } from "@riverbend/shared/schemas/business.ts";
import type { AspectInsight, EntityInsight, FaqEntry, Quote } from "@riverbend/shared/schemas/insights.ts";
import { ASPECT_TEXT } from "../aspects/labels.ts";
import type { Thresholds } from "../thresholds.ts";
import { ASPECT_QUESTIONS } from "./aspect-questions.ts";

/** The newest positive and the newest negative quote: both sides, by the same rule. */
export function faqEvidence(aspect: AspectInsight | undefined): Quote[] {
  if (!aspect) return [];
  const { positive, negative, mixed } = aspect.evidence;
  return [positive[0], negative[0] ?? mixed[0]].filter((q): q is Quote => q !== undefined);
}

/** "25 reviews mention punctuality: 23 positive, 1 negative and 1 mixed." One denominator per sentence. */
export function aspectAnswer(a: AspectInsight, asOf: string | null): string {
  const parts = [
    `${a.positive} positive`,
    `${a.negative} negative`,
    ...(a.mixed ? [`${a.mixed} mixed (judged both ways)`] : []),
    ...(a.neutral ? [`${a.neutral} neutral`] : []),
  ];
  const date = asOf ? ` Reviews up to ${asOf}.` : "";
  return `${a.mentions} reviews mention ${ASPECT_TEXT[a.id].noun}: ${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}.${date}`;
}

const listed = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

function mostReviewed(entities: readonly EntityInsight[], n: number): string {
  const top = [...entities]
    .filter((e) => e.review_count > 0)
    .sort((a, b) => b.review_count - a.review_count || (a.id < b.id ? -1 : 1))
    .slice(0, n)
    .map((e) => `${e.name} (${e.review_count} reviews)`);
  return top.length === 0 ? "" : ` Most reviewed: ${listed(top)}.`;
}

/**
 * Answers built only from computed figures and the catalogues: an aspect question is answered only
 * from faq_min_mentions mentions on; services and areas come from business.json.
 */
export function computedFaq(
  business: Business,
  aspects: readonly AspectInsight[],
  entities: { services: readonly EntityInsight[]; service_areas: readonly EntityInsight[] },
  asOf: string | null,
  thresholds: Thresholds,
  emergency: FaqEntry | undefined,
): FaqEntry[] {
  const entries: FaqEntry[] = emergency ? [emergency] : [];
  for (const q of ASPECT_QUESTIONS) {
    const aspect = aspects.find((a) => a.id === q.aspect);
    if (!aspect || aspect.mentions < thresholds.faq_min_mentions) continue;
    const answer = aspectAnswer(aspect, asOf);
    entries.push({ id: q.id, question: q.question, answer, source: "computed", evidence: faqEvidence(aspect) });
  }
  entries.push({
    id: "service-areas",
    question: "Which areas do they serve?",
    answer: `${listed(business.service_areas.map((a) => a.name))}.${mostReviewed(entities.service_areas, 3)}`,
    source: "computed",
    evidence: [],
  });
  entries.push({
    id: "services",
    question: "Which services do they offer?",
    answer: `${listed(business.services.map((s) => s.name))}.${mostReviewed(entities.services, 3)}`,
    source: "computed",
    evidence: [],
  });
  return entries;
}
