import { z } from "zod";
import { AspectIdSchema } from "./analysis.ts";

/**
 * A token pattern of the insights lexicon: words separated by spaces. A word matches a token by its
 * lower-case form or its lemma; `a|b` is a choice, `NUM` a number, `*` any one word, `...` a gap of up
 * to three words. Kept as text so editors can read and grow the files.
 */
export const LexiconPatternSchema = z
  .string()
  .min(1)
  .regex(/^\S+( \S+)*$/, "single spaces between words, no surrounding space");
export type LexiconPattern = z.infer<typeof LexiconPatternSchema>;

/** Signed valence of a word or phrase; 0 marks a topic cue that names the aspect without judging it. */
export const ValenceSchema = z.number().min(-4).max(4);

const VersionSchema = z.string().regex(/^\d+\.\d+\.\d+$/, "semantic version");

/** `aspects.json`: for each aspect, its cue patterns with their own valence. */
export const AspectLexiconSchema = z.strictObject({
  version: VersionSchema,
  aspects: z.record(AspectIdSchema, z.record(LexiconPatternSchema, ValenceSchema)),
});
export type AspectLexicon = z.infer<typeof AspectLexiconSchema>;

/** `valence.json`: general opinion words and the modifiers of the clause scorer. */
export const ValenceLexiconSchema = z.strictObject({
  version: VersionSchema,
  /** Opinion words that judge whatever aspect cue they stand next to. */
  words: z.record(LexiconPatternSchema, ValenceSchema),
  /** Words whose valence depends on the aspect of the clause ("cheap": good price, poor work). */
  conditioned: z.record(LexiconPatternSchema, z.partialRecord(AspectIdSchema, ValenceSchema)),
  /** Multipliers applied to the next opinion word or two ("very" 1.3, "a bit" 0.6). */
  intensifiers: z.record(z.string().min(1), z.number().min(0).max(3)),
  negators: z.array(z.string().min(1)),
  /** Words that end a negation scope before the usual token window ("and", "but"). */
  scope_breakers: z.array(z.string().min(1)),
  /** Clause boundaries inside a sentence. */
  contrast_markers: z.array(z.string().min(1)),
  /** Nouns naming parts or the customer's problem: an opinion word right before them is description. */
  problem_nouns: z.array(z.string().min(1)),
  /** Common words that are first names when capitalised mid-clause ("Bill was neat" is not an invoice). */
  person_names: z.array(z.string().min(1)),
  /**
   * Phrases naming another business ("another company", "a handyman"): what follows them in the same
   * comma-separated segment is about that business, not this one.
   */
  other_parties: z.array(LexiconPatternSchema),
  /**
   * Phrases that make what follows them in the same segment an expectation or a purpose, not a judgement
   * ("I was worried it would be a mess", "called to make sure it was working").
   */
  hedges: z.array(LexiconPatternSchema),
});
export type ValenceLexicon = z.infer<typeof ValenceLexiconSchema>;

/** A pattern over the lower-cased clause text for judgements no single word carries. */
export const IdiomRuleSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  aspect: AspectIdSchema,
  valence: ValenceSchema,
  /** ECMAScript regular expression source, compiled with the `u` flag. */
  regex: z.string().min(1),
  example: z.string().min(1),
});
export type IdiomRule = z.infer<typeof IdiomRuleSchema>;

/** `idioms.json`: implicit judgements and the rating guard. */
export const IdiomLexiconSchema = z.strictObject({
  version: VersionSchema,
  rules: z.array(IdiomRuleSchema),
  /** Phrases that mark praise as ironic when the review has 1 or 2 stars. */
  sarcasm_markers: z.array(LexiconPatternSchema),
});
export type IdiomLexicon = z.infer<typeof IdiomLexiconSchema>;

/** The tuning constants of the scorer, versioned with the word lists. */
export const ScorerSettingsSchema = z.strictObject({
  version: VersionSchema,
  /** A clause judges an aspect when its score reaches +threshold or -threshold; between, it abstains. */
  threshold: z.number().positive(),
  /** Multiplier of an opinion word inside a negation scope. */
  negation_factor: z.number().min(-1).max(0),
  /** Tokens after a negator that it still reaches. */
  negation_window: z.int().min(1).max(6),
  /** Sign carried into a judgement-free clause after a contrast marker, times the clause before. */
  contrast_carry: z.number().min(-1).max(0),
  /** Score from which a positive clause of a 1- or 2-star review is suspected sarcasm without a marker. */
  sarcasm_score: z.number().positive(),
});
export type ScorerSettings = z.infer<typeof ScorerSettingsSchema>;

export const LexiconSchema = z.strictObject({
  aspects: AspectLexiconSchema,
  valence: ValenceLexiconSchema,
  idioms: IdiomLexiconSchema,
  settings: ScorerSettingsSchema,
});
export type Lexicon = z.infer<typeof LexiconSchema>;
