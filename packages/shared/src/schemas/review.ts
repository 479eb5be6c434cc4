import { z } from "zod";
import { IsoDateSchema, NonEmptyTextSchema, RatingSchema, SlugSchema } from "./common.ts";

export const ReviewAuthorSchema = z
  .strictObject({
    name: NonEmptyTextSchema.max(80, { error: "must be at most 80 characters" }).meta({
      description: 'Name as displayed, e.g. "Maria G." (never an e-mail address or phone number).',
    }),
    locality: NonEmptyTextSchema.optional().meta({ description: "Where the reviewer lives, as they gave it." }),
  })
  .meta({ id: "ReviewAuthor" });
export type ReviewAuthor = z.infer<typeof ReviewAuthorSchema>;

export const VerificationMethodSchema = z
  .enum(["job_record", "invoice", "invitation"], {
    error: "must be one of job_record, invoice, invitation",
  })
  .meta({
    description:
      "How the review was tied to a real job: matched to a job record, to an invoice, or written from a post-job invitation.",
  });

export const VerificationSchema = z
  .strictObject({
    method: VerificationMethodSchema,
    reference: NonEmptyTextSchema.max(120, { error: "must be at most 120 characters" })
      .optional()
      .meta({ description: "The job, invoice or invitation number the review was matched to." }),
  })
  .meta({ id: "Verification" });

/** Where reviews come from; an unknown source is refused so a typo cannot create a new one. */
export const REVIEW_SOURCES = ["direct", "email_invitation", "sms_invitation", "google", "csv_import"] as const;
export const ReviewSourceSchema = z
  .enum(REVIEW_SOURCES, { error: `must be one of ${REVIEW_SOURCES.join(", ")}` })
  .meta({ description: 'Where the review was collected, e.g. "direct", "email_invitation", "google".' });

export const OwnerResponseSchema = z
  .strictObject({
    date: IsoDateSchema,
    text: NonEmptyTextSchema,
  })
  .meta({ id: "OwnerResponse", description: "The business owner's public reply to the review." });
export type OwnerResponse = z.infer<typeof OwnerResponseSchema>;

export const ReviewSchema = z
  .strictObject({
    id: SlugSchema.meta({ description: "Stable id, never reused; also the review's file name." }),
    date: IsoDateSchema.meta({ description: "Date the review was written (local date of the business)." }),
    rating: RatingSchema,
    title: NonEmptyTextSchema.max(200, { error: "must be at most 200 characters" }).optional(),
    text: NonEmptyTextSchema.optional().meta({
      description: "Review text, plain text; paragraphs separated by a blank line. Absent for a rating-only review.",
    }),
    author: ReviewAuthorSchema,
    verified: z.literal(true, { error: "must be true: only verified reviews are published" }),
    verification: VerificationSchema,
    source: ReviewSourceSchema,
    source_id: NonEmptyTextSchema.max(200, { error: "must be at most 200 characters" })
      .optional()
      .meta({ description: "The review's id at its source (an import), so importing it again adds nothing." }),
    technicians: z
      .array(NonEmptyTextSchema, { error: "must be a list of technician names" })
      .meta({ description: 'Technicians on the job, by display name, e.g. ["Luis O."].' }),
    services: z
      .array(SlugSchema, { error: "must be a list of service ids" })
      .meta({ description: "Ids of the services the job involved." }),
    service_area: SlugSchema.meta({ description: "Id of the service area of the job." }),
    response: OwnerResponseSchema.optional(),
    updated: IsoDateSchema.optional().meta({ description: "Date of the last edit of the review or reply." }),
  })
  .meta({ id: "Review", description: "One verified customer review." });
export type Review = z.infer<typeof ReviewSchema>;

/** A review with words: only these go into text analysis (a rating-only review has none). */
export type TextReview = Review & { text: string };
export const hasText = (review: Review): review is TextReview => review.text !== undefined;
