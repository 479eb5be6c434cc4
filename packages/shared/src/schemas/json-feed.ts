import { z } from "zod";
import { RatingSchema } from "./common.ts";
import { VerificationMethodSchema } from "./review.ts";

const FeedAuthorSchema = z.strictObject({ name: z.string(), url: z.url().optional() }).meta({ id: "JsonFeedAuthor" });

export const ReviewExtensionSchema = z
  .strictObject({
    about: z.url(),
    rating: RatingSchema,
    best_rating: z.literal(5),
    technicians: z.array(z.string()),
    services: z.array(z.string()),
    service_area: z.string(),
    verified: z.literal(true),
    verification_method: VerificationMethodSchema,
  })
  .meta({ id: "ReviewFeedExtension", description: "The `_review` extension of a JSON Feed item." });

export const JsonFeedItemSchema = z
  .strictObject({
    id: z.string().min(1),
    url: z.url(),
    title: z.string(),
    content_text: z.string(),
    content_html: z.string(),
    summary: z.string().optional(),
    date_published: z.iso.datetime({ offset: true }),
    date_modified: z.iso.datetime({ offset: true }).optional(),
    authors: z.array(FeedAuthorSchema),
    tags: z.array(z.string()),
    language: z.string().optional(),
    _review: ReviewExtensionSchema,
  })
  .meta({ id: "JsonFeedItem" });
export type JsonFeedItem = z.infer<typeof JsonFeedItemSchema>;

export const JsonFeedSchema = z
  .strictObject({
    version: z.literal("https://jsonfeed.org/version/1.1"),
    title: z.string(),
    home_page_url: z.url(),
    feed_url: z.url(),
    description: z.string(),
    language: z.string(),
    authors: z.array(FeedAuthorSchema),
    hubs: z.array(z.strictObject({ type: z.literal("WebSub"), url: z.url() })),
    items: z.array(JsonFeedItemSchema).max(50),
  })
  .meta({ id: "JsonFeed", description: "JSON Feed 1.1 of the 50 newest reviews (GET /api/feed.json)." });
export type JsonFeed = z.infer<typeof JsonFeedSchema>;
