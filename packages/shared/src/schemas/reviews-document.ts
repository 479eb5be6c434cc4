import { z } from "zod";
import { BusinessSchema } from "./business.ts";
import { ReviewSchema } from "./review.ts";

const CountSchema = z.int().min(0);

export const RatingDistributionSchema = z
  .strictObject({ "1": CountSchema, "2": CountSchema, "3": CountSchema, "4": CountSchema, "5": CountSchema })
  .meta({ id: "RatingDistribution", description: "Number of reviews at each star rating." });
export type RatingDistribution = z.infer<typeof RatingDistributionSchema>;

export const AggregateRatingSchema = z
  .strictObject({
    rating_value: z
      .number()
      .min(0)
      .max(5)
      .meta({ description: "Mean star rating, rounded to 2 decimals; 0 when there are no reviews." }),
    review_count: CountSchema,
    best_rating: z.literal(5),
    worst_rating: z.literal(1),
    distribution: RatingDistributionSchema,
  })
  .meta({ id: "AggregateRating", description: "Aggregate of all published reviews." });
export type AggregateRating = z.infer<typeof AggregateRatingSchema>;

export const ReviewsDocumentSchema = z
  .strictObject({
    business: BusinessSchema,
    aggregate_rating: AggregateRatingSchema,
    reviews: z.array(ReviewSchema).meta({ description: "All verified reviews, newest first (by date, then id)." }),
  })
  .meta({ id: "ReviewsDocument", description: "The whole reviews dataset (GET /reviews.json)." });
export type ReviewsDocument = z.infer<typeof ReviewsDocumentSchema>;
