import type { ReviewAnalysis } from "@riverbend/shared/schemas/analysis.ts";
import type { TopicCatalogue } from "@riverbend/shared/schemas/insights-data.ts";
import type { Lexicon } from "@riverbend/shared/schemas/lexicon.ts";
import type { TextReview as Review } from "@riverbend/shared/schemas/review.ts";
import { AnalysedReview } from "../analysed-review.ts";
import type { AnalysisCache } from "../cache/analysis-cache.ts";
import { type Encoded, encode } from "../cache/codec.ts";
import { type CompiledTopic, compileTopics, matchTopics } from "../topics/match-topics.ts";
import { analyzeWithWorker } from "./parallel.ts";

/** What the step needs of the analyser (src/insights/analysis). */
export interface ReviewAnalyzer {
  analyze(text: string, rating?: number): ReviewAnalysis;
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

/** The whole per-review step for one text: the analysis and the topics its judged clauses speak to. */
export function analyzeText(
  analyzer: ReviewAnalyzer,
  text: string,
  rating: number,
  topics: readonly CompiledTopic[],
): Encoded {
  const analysis = analyzer.analyze(text, rating);
  return encode(analysis, matchTopics(text, analysis, topics));
}

/**
 * Analyses every review whose (text, rating) the cache has not seen under this method and lexicon,
 * and reads the others from the cache. Cached and fresh results go through the same codec, so a
 * warm build publishes byte-identical figures. With `parallel`, many uncached reviews are analysed
 * first, on this thread and a worker; the results, the order and the cache's contents are those of
 * the single-threaded path. Cached reviews never go to the worker.
 */
export async function analyzeReviews(
  reviews: readonly Review[],
  analyzer: ReviewAnalyzer,
  cache: AnalysisCache,
  catalogue: TopicCatalogue,
  parallel?: ParallelOptions,
): Promise<{ items: AnalysedReview[]; analysed: number }> {
  const topics = compileTopics(catalogue);
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
      const { entries } = await analyzeWithWorker(
        list.map((r) => r.text),
        list.map((r) => r.rating),
        { lexicon: parallel.lexicon, modelRoot: parallel.modelRoot, topics: catalogue },
        (text, rating) => analyzeText(analyzer, text, rating, topics),
      );
      fresh = new Map([...pending.keys()].map((key, i) => [key, entries[i] as Encoded]));
    }
  }
  let analysed = 0;
  const items = reviews.map((review, i): AnalysedReview => {
    const key = keys[i] as string;
    let entry = cache.get(key);
    if (!entry) {
      entry = fresh?.get(key) ?? analyzeText(analyzer, review.text, review.rating, topics);
      cache.set(key, entry);
      analysed += 1;
    }
    return new AnalysedReview(review, entry);
  });
  return { items, analysed };
}
