import { ASPECT_IDS, type AspectId } from "@riverbend/shared/schemas/analysis.ts";
import type { Figures } from "../faq/check-numbers.ts";

/** `{reviews}`, `{punctuality.positive}`, `{price.share_positive}`: figures editor text refers to. */
const PLACEHOLDER = /\{([a-z_]+)(?:\.([a-z_]+))?\}/g;
const FIELDS = ["mentions", "positive", "negative", "neutral", "mixed", "share_positive", "mention_rate"] as const;
const TOTALS = ["reviews", "reviews_with_text"] as const;

/** Messages for the placeholders of a text that name no figure (checked before any review is read). */
export function unknownPlaceholders(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) {
    const [written, head, field] = m;
    if (field === undefined && (TOTALS as readonly string[]).includes(head as string)) continue;
    if (ASPECT_IDS.includes(head as AspectId) && (FIELDS as readonly (string | undefined)[]).includes(field)) continue;
    out.push(
      `unknown placeholder ${written}: use {reviews}, {reviews_with_text} or {ASPECT.FIELD} with ASPECT one of ${ASPECT_IDS.join(", ")} and FIELD one of ${FIELDS.join(", ")}`,
    );
  }
  return out;
}

const percent = (n: number, d: number) => `${d === 0 ? 0 : Math.round((100 * n) / d)}%`;

/** The text with every placeholder replaced by its figure, so editor text never goes stale. */
export function fillPlaceholders(text: string, figures: Figures): string {
  return text.replace(PLACEHOLDER, (written, head: string, field: string | undefined) => {
    if (field === undefined) {
      if (head === "reviews") return String(figures.reviewCount);
      if (head === "reviews_with_text") return String(figures.reviewsWithText);
      return written;
    }
    const c = figures.aspects.get(head as AspectId);
    if (!c) return written;
    switch (field) {
      case "share_positive":
        return percent(c.positive, c.positive + c.negative);
      case "mention_rate":
        return percent(c.mentions, figures.reviewsWithText);
      case "mentions":
      case "positive":
      case "negative":
      case "neutral":
      case "mixed":
        return String(c[field]);
      default:
        return written;
    }
  });
}

/** The text as the number check reads it: placeholders are right by construction, so they are left out. */
export function withoutPlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, "");
}
