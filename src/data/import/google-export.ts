import { z } from "zod";
import { displayName } from "../editor/display-name.ts";
import { type ImportCandidate, parseRating, type ReadResult, type RefusedRow } from "./candidate.ts";
import { parseLocalDate } from "./dates.ts";

/**
 * A review object of the Google Business Profile API (accounts.locations.reviews), as an export
 * holds it; fields this import does not use are allowed and ignored.
 */
const GoogleReviewSchema = z.looseObject({
  reviewId: z.string().min(1),
  reviewer: z.looseObject({ displayName: z.string().optional(), isAnonymous: z.boolean().optional() }).optional(),
  starRating: z.enum(["ONE", "TWO", "THREE", "FOUR", "FIVE"], { error: "must be ONE, TWO, THREE, FOUR or FIVE" }),
  comment: z.string().optional(),
  createTime: z.string(),
  updateTime: z.string().optional(),
  reviewReply: z.looseObject({ comment: z.string(), updateTime: z.string().optional() }).optional(),
});

/**
 * Is this parsed JSON a Business Profile export: a list response `{ reviews: [...] }` or a bare list?
 * The API leaves `reviews` out of the response of a location with none, keeping `totalReviewCount`.
 */
export function isGoogleExport(json: unknown): boolean {
  const response = json as { reviews?: unknown; totalReviewCount?: unknown } | null;
  if (response?.reviews === undefined && typeof response?.totalReviewCount === "number") return true;
  const list = Array.isArray(json) ? json : response?.reviews;
  return Array.isArray(list) && list.some((item) => item && typeof item === "object" && "starRating" in item);
}

const TRANSLATED = "(Translated by Google)";

/**
 * Keeps what the customer wrote: Google puts its translation first ("(Translated by Google) ...
 * (Original) ...") or after the original ("... (Translated by Google) ...").
 */
function original(comment: string | undefined): string | undefined {
  if (!comment) return undefined;
  const marker = comment.indexOf("(Original)");
  const translated = comment.indexOf(TRANSLATED);
  const text =
    marker >= 0
      ? comment.slice(marker + "(Original)".length)
      : translated > 0
        ? comment.slice(0, translated)
        : comment.replace(TRANSLATED, "");
  return text.replace(/\r\n?/g, "\n").trim() || undefined;
}

/** Reads a Business Profile reviews export into import candidates. */
export function readGoogleExport(json: unknown, timeZone: string): ReadResult {
  const list = (Array.isArray(json) ? json : ((json as { reviews?: unknown[] }).reviews ?? [])) as unknown[];
  const candidates: ImportCandidate[] = [];
  const refused: RefusedRow[] = [];
  list.forEach((item, index) => {
    const id = (item as { reviewId?: unknown } | null)?.reviewId;
    const where = typeof id === "string" ? `review ${id}` : `reviews[${index}]`;
    const parsed = GoogleReviewSchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const value = issue?.path.reduce<unknown>(
        (v, key) => (v as Record<PropertyKey, unknown> | undefined)?.[key],
        item,
      );
      const given = issue?.path.length ? ` (got ${JSON.stringify(value ?? null)})` : "";
      refused.push({
        where,
        reason: `${issue?.path.join(".") || "review"}: ${issue?.message ?? "not a review object"}${given}`,
      });
      return;
    }
    const review = parsed.data;
    const date = parseLocalDate(review.createTime, timeZone);
    if (!date) {
      refused.push({ where, reason: `createTime ${JSON.stringify(review.createTime)} is not a timestamp` });
      return;
    }
    // Google names a reviewer who hides their name "A Google User", not always with isAnonymous.
    const shown = review.reviewer?.displayName?.trim() ?? "";
    const anonymous = review.reviewer?.isAnonymous || shown === "" || /^a google user$/i.test(shown);
    const author = anonymous ? "Google user" : displayName(review.reviewer?.displayName ?? "");
    if (!author) {
      refused.push({ where, reason: "reviewer.displayName is not a name" });
      return;
    }
    const updated = review.updateTime ? parseLocalDate(review.updateTime, timeZone) : undefined;
    const reply = review.reviewReply;
    const replyDate = reply?.updateTime ? parseLocalDate(reply.updateTime, timeZone) : undefined;
    candidates.push({
      where,
      source: "google",
      sourceId: review.reviewId,
      date,
      rating: parseRating(review.starRating) ?? 0,
      author,
      text: original(review.comment),
      technicians: [],
      services: [],
      updated: updated && updated > date ? updated : undefined,
      // A reply is never dated before the review it answers, whatever the export's clock says.
      response: reply?.comment.trim()
        ? { date: [replyDate ?? updated ?? date, date].sort().at(-1) ?? date, text: reply.comment.trim() }
        : undefined,
    });
  });
  return { candidates, refused, notes: list.length === 0 ? ["the export holds no reviews"] : [] };
}
