import type { ReviewAnalysis } from "../../schemas/analysis.ts";
import type { Review } from "../../schemas/review.ts";
import { AnalysedReview } from "../analysed-review.ts";
import type { AnalysisCache } from "../cache/analysis-cache.ts";
import { encode } from "../cache/codec.ts";
import { extractPhrases } from "../topics/phrases.ts";

/** What the step needs of the analyser (src/insights/analysis). */
export interface ReviewAnalyzer {
  analyze(text: string, rating?: number): ReviewAnalysis;
}

/**
 * Analyses every review whose (text, rating) the cache has not seen under this method and lexicon,
 * and reads the others from the cache. Cached and fresh results go through the same codec, so a
 * warm build publishes byte-identical figures.
 */
export function analyseReviews(
  reviews: readonly Review[],
  analyzer: ReviewAnalyzer,
  cache: AnalysisCache,
  opinionWords: ReadonlySet<string>,
): { items: AnalysedReview[]; analysed: number } {
  let analysed = 0;
  const items = reviews.map((review): AnalysedReview => {
    const key = cache.key(review.text, review.rating);
    let entry = cache.get(key);
    if (!entry) {
      const analysis = analyzer.analyze(review.text, review.rating);
      entry = encode(analysis, extractPhrases(review.text, analysis, opinionWords));
      cache.set(key, entry);
      analysed += 1;
    }
    return new AnalysedReview(review, entry);
  });
  return { items, analysed };
}
