import { z } from "zod";

/** A calendar date (`YYYY-MM-DD`) that exists: `2025-02-30` is rejected. */
export const IsoDateSchema = z.iso
  .date({ error: "must be a real calendar date written YYYY-MM-DD, e.g. 2025-03-02" })
  .meta({ id: "IsoDate", description: "A calendar date, YYYY-MM-DD.", examples: ["2025-03-02"] });
export type IsoDate = z.infer<typeof IsoDateSchema>;

/** Lower-case slug used for ids of catalogue entries and reviews. */
export const SlugSchema = z
  .string({ error: "must be a text id" })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
    error: "must be lower-case letters, digits and single hyphens, e.g. 2025-03-02-maria-g",
  })
  .max(120, { error: "must be at most 120 characters" });

export const RatingSchema = z
  .int({ error: "must be a whole number from 1 to 5" })
  .min(1, { error: "must be a whole number from 1 to 5" })
  .max(5, { error: "must be a whole number from 1 to 5" })
  .meta({ id: "Rating", description: "Star rating, a whole number from 1 (worst) to 5 (best)." });
export type Rating = z.infer<typeof RatingSchema>;

// XML 1.0 forbids C0 control characters other than tab and line breaks, and they are invisible in
// an editor (text pasted from word processors carries them): reject them where they enter.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]/;

function controlCharacterMessage(text: string): string {
  const index = text.search(CONTROL_CHARACTER);
  const code = text.charCodeAt(index).toString(16).toUpperCase().padStart(4, "0");
  return `must not contain invisible control characters (U+${code} at character ${index + 1}); retype that spot`;
}

export const NonEmptyTextSchema = z
  .string({ error: "must be text" })
  .trim()
  .min(1, { error: "must not be empty" })
  .refine((text) => !CONTROL_CHARACTER.test(text), { error: (issue) => controlCharacterMessage(String(issue.input)) })
  .refine((text) => text.isWellFormed(), { error: "contains a broken character (a lone surrogate); retype it" });
