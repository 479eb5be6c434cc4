import { z } from "zod";
import { IsoDateSchema, RatingSchema } from "./common.ts";

/** The fixed aspect taxonomy of the insights. Order is the display order. */
export const ASPECT_IDS = [
  "punctuality",
  "responsiveness",
  "price",
  "professionalism",
  "quality",
  "communication",
  "cleanliness",
] as const;

export const AspectIdSchema = z.enum(ASPECT_IDS).meta({
  id: "AspectId",
  description:
    "One of the seven fixed aspects: punctuality, responsiveness, price, professionalism, quality, communication, cleanliness.",
});
export type AspectId = z.infer<typeof AspectIdSchema>;

/** Polarity of one clause about one aspect. */
export const ClausePolaritySchema = z.enum(["positive", "negative", "neutral"]);
export type ClausePolarity = z.infer<typeof ClausePolaritySchema>;

/** Polarity of a review about an aspect: `mixed` when its clauses judge the aspect both ways. */
export const AspectPolaritySchema = z.enum(["positive", "negative", "neutral", "mixed"]).meta({
  id: "AspectPolarity",
  description: "positive, negative, neutral, or mixed (the same review judges the aspect both ways).",
});
export type AspectPolarity = z.infer<typeof AspectPolaritySchema>;

/** A clause of the review text that carries a judgement: `text.slice(start, end)` is the quote. */
export const EvidenceSpanSchema = z.strictObject({
  start: z.int().min(0),
  end: z.int().min(1),
  polarity: ClausePolaritySchema,
  /** The cue (word or phrase of the aspect lexicon) that tied the clause to the aspect. */
  cue: z.string(),
  /** Signed clause score before thresholding; kept for editors and for tuning, not published. */
  score: z.number(),
});
export type EvidenceSpan = z.infer<typeof EvidenceSpanSchema>;

export const AspectJudgementSchema = z.strictObject({
  aspect: AspectIdSchema,
  polarity: AspectPolaritySchema,
  evidence: z.array(EvidenceSpanSchema).min(1),
});
export type AspectJudgement = z.infer<typeof AspectJudgementSchema>;

/** What the analyser reads in one review. Aspects appear in taxonomy order, each at most once. */
export const ReviewAnalysisSchema = z.strictObject({
  aspects: z.array(AspectJudgementSchema),
  /** Strongly positive clauses in a 1- or 2-star review: counted nowhere, listed for editors. */
  suspected_sarcasm: z.array(z.strictObject({ start: z.int().min(0), end: z.int().min(1) })),
});
export type ReviewAnalysis = z.infer<typeof ReviewAnalysisSchema>;

/** One line of a labelled evaluation file (`npm run insights:eval -- FILE.jsonl`). */
export const LabelledReviewSchema = z.object({
  id: z.string().min(1),
  rating: z.int().min(1).max(5).optional(),
  text: z.string().min(1),
  aspects: z.partialRecord(AspectIdSchema, AspectPolaritySchema),
});
export type LabelledReview = z.infer<typeof LabelledReviewSchema>;

/**
 * One line of a file of reviews to audit (`npm run insights:audit -- --reviews FILE.jsonl`): the text and
 * rating, with the job's details when known. A labelled line (with `aspects`) is one too.
 */
export const AuditReviewLineSchema = z.object({
  id: z.string().min(1),
  rating: RatingSchema,
  text: z.string().min(1),
  date: IsoDateSchema.optional(),
  technicians: z.array(z.string().min(1)).optional(),
  services: z.array(z.string().min(1)).optional(),
});
export type AuditReviewLine = z.infer<typeof AuditReviewLineSchema>;
