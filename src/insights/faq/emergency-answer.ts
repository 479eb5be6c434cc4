import type { Business } from "@riverbend/shared/schemas/business.ts";
import type { FaqEntry, Quote } from "@riverbend/shared/schemas/insights.ts";
import type { AnalysedReview } from "../analysed-review.ts";
import { type Permalink, selectEvidence } from "../aspects/evidence.ts";
import { Judgements } from "../aspects/judgements.ts";
import { PHRASE_WIDTH } from "../cache/codec.ts";
import type { Thresholds } from "../thresholds.ts";

/** Topics that say the emergency line or the call-back failed (topics.json ids). */
const LINE_TOPICS = new Set(["emergency-line", "call-backs"]);

function negativeOnLine(item: AnalysedReview): boolean {
  const words = item.encoded[2];
  for (let w = 0; w < words.length; w += PHRASE_WIDTH) {
    if (LINE_TOPICS.has(words[w] as string) && words[w + 2] === 1) return true;
  }
  return false;
}

/**
 * "Do they handle emergencies?" answered from the reviews of emergency jobs (the structured service field,
 * issue 13 point 5), not from responsiveness over all jobs: how many there are, how those that judge the
 * response split, how many complaints are about the emergency line or a call-back, with a quote each way.
 * Undefined below faq_min_mentions such reviews.
 */
export function emergencyAnswer(
  business: Business,
  items: readonly AnalysedReview[],
  thresholds: Thresholds,
  permalink: Permalink,
): FaqEntry | undefined {
  const ids = new Set(business.services.filter((s) => /emergenc/i.test(`${s.id} ${s.name}`)).map((s) => s.id));
  const jobs = items.filter((item) => item.review.services.some((id) => ids.has(id)));
  if (jobs.length < thresholds.faq_min_mentions) return undefined;
  const judgements = new Judgements(jobs);
  const t = judgements.tally("responsiveness");
  const judged = t.positive + t.negative + t.mixed + t.neutral;
  const sentences = [
    ...(business.emergency_service ? [`The business lists: ${business.emergency_service}.`] : []),
    `${jobs.length} reviews are of emergency jobs.`,
  ];
  if (judged > 0) {
    const rest = t.mixed ? `, ${t.negative} negative and ${t.mixed} mixed` : ` and ${t.negative} negative`;
    sentences.push(`Of the ${judged} that judge how fast the business responded, ${t.positive} are positive${rest}.`);
  }
  const complaints = jobs.filter((item, i) => {
    const p = judgements.polarity(i, "responsiveness");
    return (p === "negative" || p === "mixed") && negativeOnLine(item);
  }).length;
  if (t.negative + t.mixed > 0) {
    sentences.push(
      `Of the ${t.negative + t.mixed} that complain, ${complaints} are about the emergency line or a call-back not answered in time.`,
    );
  }
  const quote = (bucket: "positive" | "negative") =>
    selectEvidence(judgements, "responsiveness", bucket, thresholds, permalink)[0];
  return {
    id: "emergencies",
    question: "Do they handle emergencies, and how fast do they respond?",
    answer: sentences.join(" "),
    source: "computed",
    evidence: [quote("positive"), quote("negative")].filter((q): q is Quote => q !== undefined),
  };
}
