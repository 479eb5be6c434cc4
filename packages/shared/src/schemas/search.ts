import { z } from "zod";
import { IsoDateSchema, RatingSchema } from "./common.ts";
import { ReviewSchema } from "./review.ts";

export const SearchSortSchema = z
  .enum(["newest", "oldest", "highest", "lowest"], { error: "must be one of newest, oldest, highest, lowest" })
  .meta({ id: "SearchSort" });
export type SearchSort = z.infer<typeof SearchSortSchema>;

const FacetCountsSchema = z.record(z.string(), z.int().min(0));

/**
 * Counts per filter value for the current selection. A value's count is what the search would match
 * with that value as its filter's value and every other filter kept (so a filter already set does not
 * zero the counts of its alternatives). Keys are values the filter parameters accept.
 */
export const SearchFacetsSchema = z
  .strictObject({
    rating: FacetCountsSchema.meta({ description: 'Per star rating ("1".."5"), for the rating parameter.' }),
    technician: FacetCountsSchema.meta({ description: "Per technician id, for mentions_technician." }),
    service: FacetCountsSchema.meta({ description: "Per service id, for mentions_service." }),
    area: FacetCountsSchema.meta({ description: "Per service area id, for area." }),
    topic: FacetCountsSchema.meta({ description: "Per insights topic id, for topic." }),
  })
  .meta({ id: "SearchFacets" });
export type SearchFacets = z.infer<typeof SearchFacetsSchema>;

/**
 * Search parameters with their types after decoding. The HTTP layer decodes query strings into this
 * shape; the MCP tool receives it directly, so both validate through the same schema.
 */
export const SearchParamsSchema = z
  .strictObject({
    rating: RatingSchema.optional().meta({ description: "Exact star rating to match (1-5)." }),
    min_rating: z
      .number({ error: "must be a number from 1 to 5" })
      .min(1, { error: "must be a number from 1 to 5" })
      .max(5, { error: "must be a number from 1 to 5" })
      .optional()
      .meta({ description: "Minimum star rating, inclusive (1-5). Combines with rating: both apply." }),
    since: IsoDateSchema.optional().meta({ description: "Only reviews dated on or after this date." }),
    until: IsoDateSchema.optional().meta({ description: "Only reviews dated on or before this date." }),
    query: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(200, { error: "must be at most 200 characters" })
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
      .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, { error: "must not contain control characters" })
      // Matching folds accents away; a query of accents alone would fold to nothing and match all.
      .refine((q) => q.normalize("NFD").replace(/\p{M}/gu, "").length > 0, {
        error: "must contain more than combining accents",
      })
      .optional()
      .meta({ description: "Case- and accent-insensitive substring of the review text or title." }),
    mentions_technician: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .optional()
      .meta({ description: "Technician id, display name or first name, case-insensitive." }),
    mentions_service: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .optional()
      .meta({ description: "Service id, case-insensitive." }),
    area: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .optional()
      .meta({ description: "Service area id, case-insensitive: the area the job was in." }),
    topic: z.string().trim().min(1, { error: "must not be empty" }).optional().meta({
      description: "Insights topic id, case-insensitive: reviews the build's insights file under that topic.",
    }),
    facets: z.boolean({ error: "must be true or false" }).optional().meta({
      description:
        "With true, the answer adds facets: for each filter value, how many reviews the search would match with that value in place of its filter's current one.",
    }),
    limit: z
      .int({ error: "must be a whole number from 1 to 100" })
      .min(1, { error: "must be a whole number from 1 to 100" })
      .max(100, { error: "must be a whole number from 1 to 100" })
      .default(20)
      .meta({ description: "Maximum number of reviews returned (1-100, default 20)." }),
    sort: SearchSortSchema.default("newest").meta({
      description: "Order: newest (default), oldest, highest or lowest rating; ties newest first, then by id.",
    }),
    cursor: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(200, { error: "must be at most 200 characters" })
      .optional()
      .meta({
        description:
          "Opaque cursor from next_cursor of the previous page, with the same filters and sort. Valid while the data is unchanged.",
      }),
  })
  .meta({ id: "SearchParams", description: "Filters of GET /api/reviews/search; all combine with AND." });
export type SearchParams = z.infer<typeof SearchParamsSchema>;

export const SearchResponseSchema = z
  .strictObject({
    total: z.int().min(0).meta({ description: "Number of reviews that match." }),
    count: z.int().min(0).meta({ description: "Number of reviews returned." }),
    limit: z.int().min(1).max(100),
    next_cursor: z.string().nullable().meta({ description: "Opaque cursor of the next page, null on the last page." }),
    reviews: z.array(ReviewSchema),
    facets: SearchFacetsSchema.optional().meta({ description: "Present when the search asked for facets=true." }),
  })
  .meta({ id: "SearchResponse" });
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

/** since/{date}'s parameters: without limit every matching review comes at once, as the spec says. */
export const SinceParamsSchema = z
  .strictObject({
    date: IsoDateSchema.meta({ description: "Only reviews dated on or after this date (YYYY-MM-DD)." }),
    limit: z
      .int({ error: "must be a whole number from 1 to 100" })
      .min(1, { error: "must be a whole number from 1 to 100" })
      .max(100, { error: "must be a whole number from 1 to 100" })
      .optional()
      .meta({ description: "Maximum number of reviews returned (1-100); without it, all of them." }),
    cursor: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(200, { error: "must be at most 200 characters" })
      .optional()
      .meta({ description: "Opaque cursor from next_cursor of the previous page, with the same date." }),
  })
  .meta({ id: "SinceParams" });
export type SinceParams = z.infer<typeof SinceParamsSchema>;

export const SinceResponseSchema = z
  .strictObject({
    since: IsoDateSchema,
    total: z.int().min(0).meta({ description: "Number of reviews dated on or after `since`." }),
    count: z.int().min(0).meta({ description: "Number of reviews returned (all of them without limit)." }),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: "Opaque cursor of the next page (only with limit), null on the last page." }),
    reviews: z.array(ReviewSchema).meta({ description: "Reviews dated on or after `since`, newest first." }),
  })
  .meta({ id: "SinceResponse" });
export type SinceResponse = z.infer<typeof SinceResponseSchema>;
