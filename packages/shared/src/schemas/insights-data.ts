import { z } from "zod";
import { AspectIdSchema } from "./analysis.ts";
import { IsoDateSchema, NonEmptyTextSchema, SlugSchema } from "./common.ts";

/**
 * Editor-owned files under `<data>/insights/`: aliases of the catalogue entries, FAQ entries and the
 * editorial summary. They are checked against the computed figures at build time.
 */

const AliasListSchema = z.array(NonEmptyTextSchema, { error: "must be a list of names" });

export const TechnicianAliasesSchema = z.strictObject({
  aliases: AliasListSchema.meta({
    description: 'Names reviewers use for the technician, e.g. ["Luis"]; matched case-sensitively.',
  }),
  is_word: z
    .boolean()
    .optional()
    .meta({ description: 'The first name is also an English word ("Bill"): only matched with context.' }),
});

export const ServiceAliasesSchema = z.strictObject({
  aliases: AliasListSchema.meta({ description: 'Phrases that name the service, e.g. ["tankless"]; any case.' }),
});

export const AreaAliasesSchema = z.strictObject({
  aliases: AliasListSchema,
  zips: z.array(z.string().regex(/^\d{5}$/, { error: "must be a 5-digit ZIP code" })).optional(),
  needs_context: z
    .boolean()
    .optional()
    .meta({ description: 'The name is also a surname or word ("Davis"): only matched after in/from/near.' }),
});

/** `entities.json`: how the text matcher recognises the technicians, services and areas of business.json. */
export const EntityAliasesFileSchema = z.strictObject({
  technicians: z.record(SlugSchema, TechnicianAliasesSchema).default({}),
  services: z.record(SlugSchema, ServiceAliasesSchema).default({}),
  service_areas: z.record(SlugSchema, AreaAliasesSchema).default({}),
});
export type EntityAliasesFile = z.infer<typeof EntityAliasesFileSchema>;

export const EditorFaqEntrySchema = z.strictObject({
  id: SlugSchema.meta({ description: "Replaces the computed entry with the same id, if any." }),
  question: NonEmptyTextSchema,
  answer: NonEmptyTextSchema.meta({ description: "Numbers next to an aspect word are checked against the figures." }),
  aspect: AspectIdSchema.optional().meta({ description: "Quote evidence for this aspect under the answer." }),
});
export type EditorFaqEntry = z.infer<typeof EditorFaqEntrySchema>;

/** `faq.json`: editor-written answers, which take precedence over computed ones. */
export const EditorFaqFileSchema = z.strictObject({ faq: z.array(EditorFaqEntrySchema) });
export type EditorFaqFile = z.infer<typeof EditorFaqFileSchema>;

/** `summary.json`: the editorial summary; `as_of` is the newest review the editor had read. */
export const EditorSummaryFileSchema = z.strictObject({
  as_of: IsoDateSchema,
  text: NonEmptyTextSchema,
});
export type EditorSummaryFile = z.infer<typeof EditorSummaryFileSchema>;

/** One topic customers weigh: a recurring judgement ("arrival window", "quote versus final bill"). */
export const TopicDefinitionSchema = z.strictObject({
  id: SlugSchema,
  label: NonEmptyTextSchema.meta({ description: "The chip's text." }),
  aspects: z
    .array(AspectIdSchema)
    .min(1)
    .meta({ description: "A mention counts only in a clause judging one of these." }),
  match: z
    .array(z.string().min(1))
    .min(1)
    .meta({ description: "Regular expressions (case-insensitive, Unicode); the judged clause must contain one." }),
});
export type TopicDefinition = z.infer<typeof TopicDefinitionSchema>;

/** `topics.json`: the judgement topics, each a static listing in the review browser. */
export const TopicCatalogueSchema = z.strictObject({
  version: z.string().min(1),
  topics: z.array(TopicDefinitionSchema),
});
export type TopicCatalogue = z.infer<typeof TopicCatalogueSchema>;
