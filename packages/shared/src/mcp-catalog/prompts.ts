import type { Review } from "../schemas/review.ts";
import { searchReviews } from "../search/search-reviews.ts";
import type { ToolContext } from "./tool-catalog.ts";

/** Compact review lines for a prompt: id first, so a model can cite it. */
function reviewLines(reviews: readonly Review[]): string {
  return reviews
    .map((r) => {
      const reply = r.response ? ` [Owner replied ${r.response.date}: ${r.response.text}]` : "";
      const who = r.technicians.length > 0 ? ` technicians: ${r.technicians.join(", ")};` : "";
      return `- id ${r.id} | ${r.date} | ${r.rating}/5 |${who} services: ${r.services.join(", ")} | ${r.title ? `${r.title}: ` : ""}${r.text ?? "(rating only)"}${reply}`;
    })
    .join("\n");
}

export interface SummarizeArgs {
  technician?: string | undefined;
  service?: string | undefined;
  since?: string | undefined;
}

/** The text of summarize_reviews: the selected reviews (up to 100, newest first) and instructions. */
export function summarizePrompt(context: ToolContext, args: SummarizeArgs): string {
  const result = searchReviews(context.index, {
    limit: 100,
    ...(args.technician ? { mentions_technician: args.technician } : {}),
    ...(args.service ? { mentions_service: args.service } : {}),
    ...(args.since ? { since: args.since } : {}),
  });
  const scope = [
    args.technician && `technician ${args.technician}`,
    args.service && `service ${args.service}`,
    args.since && `since ${args.since}`,
  ].filter(Boolean);
  return [
    `Summarize these verified customer reviews of ${context.business.name}${scope.length ? ` (${scope.join(", ")})` : ""}.`,
    `They are ${result.count} of ${result.total} matching reviews, newest first.`,
    "Say what customers praise and what they complain about, with how many reviews say each thing.",
    "Cite the review ids behind every claim, like (id 2025-03-02-maria-g). Do not invent reviews or figures.",
    "",
    reviewLines(result.reviews),
  ].join("\n");
}

const STOP_WORDS = new Set(
  "a an and are as at be but by can do does for from have how i if in is it my of on or so that the their them they this to was we what when where which who will with you your".split(
    " ",
  ),
);

/** The text of answer_customer_question: business facts, ratings and the most relevant reviews. */
export function answerQuestionPrompt(context: ToolContext, question: string): string {
  const words = [...new Set(question.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])].filter(
    (w) => !STOP_WORDS.has(w),
  );
  const { index } = context;
  const scored = Array.from({ length: index.count }, (_, position) => ({
    position,
    score: words.filter((w) => index.folded(position).includes(w)).length,
  }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 30)
    .map((entry) => index.review(entry.position));
  const { business, aggregate } = context;
  return [
    `A customer asks about ${business.name}: "${question}"`,
    "Answer from the facts and reviews below only. Cite the review ids you rely on, like (id 2025-03-02-maria-g).",
    "If the reviews do not answer the question, say so instead of guessing.",
    "",
    `Business: ${business.description} Phone ${business.telephone}. Licence ${business.licence_number}.`,
    `Areas served: ${business.service_areas.map((a) => a.name).join(", ")}.`,
    `Services: ${business.services.map((s) => `${s.name} (${s.id})`).join(", ")}.`,
    `Rating: ${aggregate.rating_value} of 5 from ${aggregate.review_count} verified reviews.`,
    "",
    scored.length > 0 ? "Reviews that mention the question's words:" : "No review mentions the question's words.",
    reviewLines(scored),
  ].join("\n");
}
