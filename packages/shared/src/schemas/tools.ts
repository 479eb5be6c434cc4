import { z } from "zod";
import { AspectIdSchema } from "./analysis.ts";
import { BusinessSchema } from "./business.ts";
import { IsoDateSchema } from "./common.ts";
import { InsightsDocumentSchema } from "./insights.ts";
import { ReviewSchema } from "./review.ts";
import { AggregateRatingSchema } from "./reviews-document.ts";

/** Inputs and outputs of the MCP tools; the search tool reuses SearchParamsSchema/SearchResponseSchema. */

export const NoArgumentsSchema = z.strictObject({});

export const BusinessInfoSchema = z.strictObject({
  business: BusinessSchema,
  aggregate_rating: AggregateRatingSchema,
});
export type BusinessInfo = z.infer<typeof BusinessInfoSchema>;

export const GetReviewArgsSchema = z.strictObject({
  id: z
    .string()
    .min(1, { error: "must not be empty" })
    .max(120)
    .meta({ description: "Review id, e.g. 2025-03-02-maria-g." }),
});

export const ReviewResultSchema = z.strictObject({ review: ReviewSchema });

export const SinceArgsSchema = z.strictObject({
  date: IsoDateSchema.meta({ description: "Only reviews dated on or after this date (YYYY-MM-DD)." }),
  limit: z
    .int({ error: "must be a whole number from 1 to 100" })
    .min(1, { error: "must be a whole number from 1 to 100" })
    .max(100, { error: "must be a whole number from 1 to 100" })
    .default(100)
    .meta({ description: "Maximum number of reviews returned, newest first (1-100, default 100)." }),
  cursor: z
    .string()
    .min(1, { error: "must not be empty" })
    .max(200, { error: "must be at most 200 characters" })
    .optional()
    .meta({ description: "Opaque cursor from next_cursor of the previous call, with the same date." }),
});

export const SinceResultSchema = z.strictObject({
  since: IsoDateSchema,
  total: z.int().min(0).meta({ description: "Number of reviews dated on or after `since`." }),
  count: z.int().min(0).meta({ description: "Number returned (at most limit)." }),
  next_cursor: z.string().nullable().meta({ description: "Cursor of the next page, null on the last page." }),
  reviews: z.array(ReviewSchema),
});

export const InsightsSectionSchema = z.enum(["aspects", "entities", "topics", "faq", "summary"], {
  error: "must be one of aspects, entities, topics, faq, summary",
});

export const InsightsArgsSchema = z.strictObject({
  section: InsightsSectionSchema.optional().meta({ description: "Only this part of the insights." }),
  aspect: z
    .enum(AspectIdSchema.options, {
      error: `must be one of ${AspectIdSchema.options.join(", ")}`,
    })
    .optional()
    .meta({
      description:
        "Narrow to one aspect: the aspects section keeps only it, and entity aspect breakdowns keep only its row.",
    }),
  technician: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "Narrow entity figures to this technician (id, display name or first name)." }),
  service: z.string().min(1).optional().meta({ description: "Narrow entity figures to this service id." }),
});

export const InsightsResultSchema = z.strictObject({
  as_of: InsightsDocumentSchema.shape.as_of,
  review_count: z.int().min(0),
  reviews_with_text: z.int().min(0),
  disclosure: InsightsDocumentSchema.shape.disclosure,
  sections: z
    .record(z.string(), z.unknown())
    .meta({ description: "The requested sections of /insights.json, narrowed as asked." }),
});
