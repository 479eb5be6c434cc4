import { z } from "zod";
import { IsoDateSchema, SlugSchema } from "./common.ts";
import { RatingDistributionSchema } from "./reviews-document.ts";

export const EntityStatsSchema = z
  .strictObject({
    id: SlugSchema,
    name: z.string(),
    review_count: z.int().min(0),
    rating_value: z.number().nullable().meta({
      description: "Mean star rating of the reviews that name this entity, 2 decimals; null without reviews.",
    }),
    distribution: RatingDistributionSchema,
  })
  .meta({ id: "EntityStats", description: "Review statistics for one technician, service or service area." });
export type EntityStats = z.infer<typeof EntityStatsSchema>;

export const InsightsDocumentSchema = z
  .strictObject({
    as_of: IsoDateSchema.nullable().meta({ description: "Date of the newest review the figures include." }),
    review_count: z.int().min(0),
    entities: z.strictObject({
      technicians: z.array(EntityStatsSchema),
      services: z.array(EntityStatsSchema),
      service_areas: z.array(EntityStatsSchema),
    }),
  })
  .meta({
    id: "InsightsDocument",
    description:
      "Insights derived from the reviews (GET /insights.json). Entity statistics come from the structured review fields.",
  });
export type InsightsDocument = z.infer<typeof InsightsDocumentSchema>;
