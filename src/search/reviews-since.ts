import { IsoDateSchema } from "../schemas/common.ts";
import type { Review } from "../schemas/review.ts";
import type { SinceResponse } from "../schemas/search.ts";
import { InvalidRequestError } from "./errors.ts";
import type { ReviewIndex } from "./review-index.ts";

/** Reviews dated on or after `date`, newest first; a future date gives an empty list. */
export function reviewsSince(index: ReviewIndex, date: unknown): SinceResponse {
  const parsed = IsoDateSchema.safeParse(date);
  if (!parsed.success) {
    throw new InvalidRequestError([
      { path: "date", code: "invalid_format", message: parsed.error.issues[0]?.message ?? "must be a date" },
    ]);
  }
  const since = parsed.data;
  // Reviews are newest first, so the matches are a prefix: find its end by binary search.
  const { reviews } = index;
  let low = 0;
  let high = reviews.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((reviews[middle] as Review).date >= since) low = middle + 1;
    else high = middle;
  }
  return { since, count: low, reviews: reviews.slice(0, low) };
}
