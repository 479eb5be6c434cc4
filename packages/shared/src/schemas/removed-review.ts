import { z } from "zod";
import { IsoDateSchema, NonEmptyTextSchema, SlugSchema } from "./common.ts";
import { ReviewSourceSchema } from "./review.ts";

/**
 * The record a removed review leaves behind in `data/removed/{id}.json`: it keeps the id taken (ids
 * are never reused), keeps the source id (a later import does not bring the review back) and gives
 * the date shown on the review's permalink. The reason stays in the data folder; it is never published.
 */
export const RemovedReviewSchema = z
  .strictObject({
    id: SlugSchema,
    removed: IsoDateSchema.meta({ description: "Date the review was taken down (local date of the business)." }),
    reason: NonEmptyTextSchema.meta({
      description: 'Why, for the record: e.g. "customer request" or "moderation: not about a job of ours".',
    }),
    source: ReviewSourceSchema.optional(),
    source_id: NonEmptyTextSchema.optional(),
  })
  .meta({ id: "RemovedReview", description: "A review taken down: its id stays reserved." });
export type RemovedReview = z.infer<typeof RemovedReviewSchema>;
