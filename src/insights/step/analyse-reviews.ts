import type { ReviewAnalysis } from "../../schemas/analysis.ts";
import type { Lexicon } from "../../schemas/lexicon.ts";
import type { Review } from "../../schemas/review.ts";
import { AnalysedReview } from "../analysed-review.ts";
import type { AnalysisCache } from "../cache/analysis-cache.ts";
import { type Encoded, encode } from "../cache/codec.ts";
import { extractPhrases, type PhraseTokens } from "../topics/phrases.ts";
import { analyseWithWorker } from "./parallel.ts";

/** What the step needs of the analyser (src/insights/analysis): the analysis and the tokens it read. */
export interface ReviewAnalyzer {
  analyzeWithTokens(text: string, rating?: number): { analysis: ReviewAnalysis; tokens: PhraseTokens };
}

/** Uncached reviews are shared with a worker thread when there are more than `minimum` of them. */
export interface ParallelOptions {
  /** The lexicon the worker builds its own analyser from (the one `analyzer` was built from). */
  lexicon: Lexicon;
  /** The project root the worker reads the learned model from. */
  modelRoot: string;
  /** 2: this thread and a worker; 1: this thread only. */
  threads: number;
  minimum: number;
}

/** The whole per-review step for one text: one wink pass feeds both the analysis and the topic phrases. */
export function analyseText(
  analyzer: ReviewAnalyzer,
  text: string,
  rating: number,
  opinionWords: ReadonlySet<string>,
): Encoded {
  const { analysis, tokens } = analyzer.analyzeWithTokens(text, rating);
  return encode(analysis, extractPhrases(tokens, analysis, opinionWords));
}

/**
 * Analyses every review whose (text, rating) the cache has not seen under this method and lexicon,
 * and reads the others from the cache. Cached and fresh results go through the same codec, so a
 * warm build publishes byte-identical figures. With `parallel`, many uncached reviews are analysed
 * first, on this thread and a worker; the results, the order and the cache's contents are those of
 * the single-threaded path. Cached reviews never go to the worker.
 */
export function analyseReviews(
  reviews: readonly Review[],
  analyzer: ReviewAnalyzer,
  cache: AnalysisCache,
  opinionWords: ReadonlySet<string>,
  parallel?: ParallelOptions,
): { items: AnalysedReview[]; analysed: number } {
  const keys = reviews.map((review) => cache.key(review.text, review.rating));
  let fresh: Map<string, Encoded> | undefined;
  if (parallel && parallel.threads > 1) {
    // Each distinct uncached (text, rating) once, in first-seen order.
    const pending = new Map<string, Review>();
    reviews.forEach((review, i) => {
      const key = keys[i] as string;
      if (!cache.has(key) && !pending.has(key)) pending.set(key, review);
    });
    if (pending.size > parallel.minimum) {
      const list = [...pending.values()];
      const { entries } = analyseWithWorker(
        list.map((r) => r.text),
        list.map((r) => r.rating),
        { lexicon: parallel.lexicon, modelRoot: parallel.modelRoot, opinionWords: [...opinionWords] },
        (text, rating) => analyseText(analyzer, text, rating, opinionWords),
      );
      fresh = new Map([...pending.keys()].map((key, i) => [key, entries[i] as Encoded]));
    }
  }
  let analysed = 0;
  const items = reviews.map((review, i): AnalysedReview => {
    const key = keys[i] as string;
    let entry = cache.get(key);
    if (!entry) {
      entry = fresh?.get(key) ?? analyseText(analyzer, review.text, review.rating, opinionWords);
      cache.set(key, entry);
      analysed += 1;
    }
    return new AnalysedReview(review, entry);
  });
  return { items, analysed };
}
