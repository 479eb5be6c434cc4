import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { ReviewsDocument } from "@riverbend/shared/schemas/reviews-document.ts";
import { aggregateRating } from "./aggregate.ts";

/** The whole dataset as published at /reviews.json; reviews are already newest first. */
export function buildReviewsDocument(dataset: Dataset): ReviewsDocument {
  return {
    business: dataset.business,
    aggregate_rating: aggregateRating(dataset.reviews),
    reviews: [...dataset.reviews],
  };
}
