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
  analyzeAll(reviews: readonly { text: string; rating?: number | undefined }[]): ReviewAnalysis[];
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

/** Reviews per `analyzeAll` call: enough for its stages to keep their tables in cache, and little held at once. */
const CHUNK = 250;

/** The whole per-review step for each text: the analysis and the topics its judged clauses speak to. */
export function analyzeTexts(
  analyzer: ReviewAnalyzer,
  texts: readonly string[],
  ratings: readonly number[],
  topics: readonly CompiledTopic[],
): Encoded[] {
  const out: Encoded[] = [];
  for (let from = 0; from < texts.length; from += CHUNK) {
    const chunk = texts.slice(from, from + CHUNK).map((text, i) => ({ text, rating: ratings[from + i] }));
    analyzer.analyzeAll(chunk).forEach((analysis, i) => {
      const { text } = chunk[i] as { text: string };
      out.push(encode(analysis, matchTopics(text, analysis, topics)));
    });
  }
  return out;
}

/**
 * Analyses every review whose (text, rating) the cache has not seen under this method and lexicon,
 * and reads the others from the cache. Cached and fresh results go through the same codec, so a
 * warm build publishes byte-identical figures. Each distinct uncached (text, rating) is analysed once;
 * with `parallel`, many of them are shared with a worker thread, and the results, the order and the
 * cache's contents are those of the single-threaded path. Cached reviews never go to the worker.
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
  // Each distinct uncached (text, rating) once, in first-seen order.
  const pending = new Map<string, Review>();
  reviews.forEach((review, i) => {
    const key = keys[i] as string;
    if (!cache.has(key) && !pending.has(key)) pending.set(key, review);
  });
  const list = [...pending.values()];
  const texts = list.map((r) => r.text);
  const ratings = list.map((r) => r.rating);
  const inThread = (t: readonly string[], r: readonly number[]) => analyzeTexts(analyzer, t, r, topics);
  const shared = parallel !== undefined && parallel.threads > 1 && list.length > parallel.minimum;
  const entries = shared
    ? (
        await analyzeWithWorker(
          texts,
          ratings,
          { lexicon: parallel.lexicon, modelRoot: parallel.modelRoot, topics: catalogue },
          inThread,
        )
      ).entries
    : inThread(texts, ratings);
  const fresh = new Map([...pending.keys()].map((key, i) => [key, entries[i] as Encoded]));
  let analysed = 0;
  const items = reviews.map((review, i): AnalysedReview => {
    const key = keys[i] as string;
    let entry = cache.get(key);
    if (!entry) {
      entry = fresh.get(key) as Encoded;
      cache.set(key, entry);
      analysed += 1;
    }
    return new AnalysedReview(review, entry);
  });
  return { items, analysed };
}
