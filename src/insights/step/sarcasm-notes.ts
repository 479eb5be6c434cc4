import type { AnalysedReview } from "../analysed-review.ts";

/**
 * Clauses the analyser set aside as suspected sarcasm (strong praise in a 1- or 2-star review).
 * They count nowhere and are not published: an editor reads them in the build log and, if they
 * are sincere, fixes the lexicon rather than the figures.
 */
export function sarcasmNotes(items: readonly AnalysedReview[]): string[] {
  const notes: string[] = [];
  for (const item of items) {
    if (!item.hasSuspectedSarcasm) continue;
    const { review } = item;
    for (const span of item.analysis.suspected_sarcasm) {
      const quote = review.text.slice(span.start, span.end).trim().replace(/\s+/g, " ");
      notes.push(`insights: suspected sarcasm, not counted: ${review.id} (${review.rating} stars): "${quote}"`);
    }
  }
  return notes;
}
