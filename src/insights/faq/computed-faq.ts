import type { Business } from "../../schemas/business.ts";
import type { AspectInsight, EntityInsight, FaqEntry, Quote } from "../../schemas/insights.ts";
import { ASPECT_TEXT } from "../aspects/labels.ts";
import type { Thresholds } from "../thresholds.ts";
import { ASPECT_QUESTIONS } from "./aspect-questions.ts";

/** The newest positive and the newest negative quote: both sides, by the same rule. */
export function faqEvidence(aspect: AspectInsight | undefined): Quote[] {
  if (!aspect) return [];
  const { positive, negative, mixed } = aspect.evidence;
  return [positive[0], negative[0] ?? mixed[0]].filter((q): q is Quote => q !== undefined);
}

/** "23 of 25 reviews that mention punctuality are positive, 1 negative and 1 mixed." */
export function aspectAnswer(a: AspectInsight, asOf: string | null): string {
  const rest = [
    a.negative ? `${a.negative} negative` : "",
    a.mixed ? `${a.mixed} mixed` : "",
    a.neutral ? `${a.neutral} neutral` : "",
  ].filter(Boolean);
  const others =
    rest.length === 0 ? "" : `, ${rest.slice(0, -1).join(", ")}${rest.length > 1 ? " and " : ""}${rest.at(-1)}`;
  const noun = ASPECT_TEXT[a.id].noun;
  const share =
    a.share_positive === null ? "" : ` (${Math.round(a.share_positive * 100)}% of those positive or negative)`;
  const date = asOf ? ` Reviews up to ${asOf}.` : "";
  return `${a.positive} of ${a.mentions} reviews that mention ${noun} are positive${share}${others}.${date}`;
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
): FaqEntry[] {
  const entries: FaqEntry[] = [];
  for (const q of ASPECT_QUESTIONS) {
    const aspect = aspects.find((a) => a.id === q.aspect);
    if (!aspect || aspect.mentions < thresholds.faq_min_mentions) continue;
    let answer = aspectAnswer(aspect, asOf);
    if (q.aspect === "responsiveness" && business.emergency_service) {
      answer = `The business lists: ${business.emergency_service}. ${answer}`;
    }
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
