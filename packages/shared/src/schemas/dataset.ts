import type { Business } from "./business.ts";
import type { RemovedReview } from "./removed-review.ts";
import type { Review } from "./review.ts";

/** Validated input data: the business and its reviews, newest first (by date, then id). */
export interface Dataset {
  business: Business;
  reviews: readonly Review[];
  /** Reviews taken down, by id: their permalinks say so; nothing else mentions them. */
  removed: readonly RemovedReview[];
  /** sha256 over every input file (name and content), so derived documents can name their source. */
  sourceSha256: string;
}

/** Newest first: by date descending, then id descending, so the order is total and stable. */
export function compareNewestFirst(a: Review, b: Review): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? 1 : -1;
}

/** The latest date at which a review or its owner reply changed. */
export function reviewLastChanged(review: Review): string {
  let latest = review.date;
  if (review.updated && review.updated > latest) latest = review.updated;
  if (review.response && review.response.date > latest) latest = review.response.date;
  return latest;
}

/** Latest change date over a set of reviews, or undefined for none. */
export function latestChange(reviews: Iterable<Review>): string | undefined {
  let latest: string | undefined;
  for (const review of reviews) {
    const changed = reviewLastChanged(review);
    if (!latest || changed > latest) latest = changed;
  }
  return latest;
}
