import type { Review } from "@riverbend/shared/schemas/review.ts";
import type { AggregateRating, RatingDistribution } from "@riverbend/shared/schemas/reviews-document.ts";

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function ratingDistribution(reviews: Iterable<Review>): RatingDistribution {
  const distribution: RatingDistribution = { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 };
  for (const review of reviews) distribution[String(review.rating) as keyof RatingDistribution] += 1;
  return distribution;
}

/** Mean rating (2 decimals) and count from a distribution; mean is null without reviews. */
export function summarize(distribution: RatingDistribution): { count: number; mean: number | null } {
  let count = 0;
  let sum = 0;
  for (const [stars, n] of Object.entries(distribution)) {
    count += n;
    sum += Number(stars) * n;
  }
  return { count, mean: count === 0 ? null : round2(sum / count) };
}

export function aggregateRating(reviews: readonly Review[]): AggregateRating {
  const distribution = ratingDistribution(reviews);
  const { count, mean } = summarize(distribution);
  return { rating_value: mean ?? 0, review_count: count, best_rating: 5, worst_rating: 1, distribution };
}
