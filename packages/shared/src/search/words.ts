/**
 * The word index's unit: a maximal run of letters and digits of a review's folded text. A needle made
 * only of letters and digits occurs in a text exactly when it occurs inside one of the text's words,
 * so its matches are the union of the postings of the distinct words that contain it: exact, with no
 * substring test per review. Needles holding other characters use the gram index (see grams.ts).
 */
const WORD = /[\p{L}\p{N}]+/gu;
const ONLY_WORD_CHARACTERS = /^[\p{L}\p{N}]+$/u;

/** The words of a folded text, repeats included. */
export const wordsOf = (folded: string): string[] => folded.match(WORD) ?? [];

/** Whether a folded needle is matched through the word index. */
export const isWordNeedle = (needle: string): boolean => ONLY_WORD_CHARACTERS.test(needle);
