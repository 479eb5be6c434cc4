import type { AspectId, ClausePolarity, ReviewAnalysis } from "@riverbend/shared/schemas/analysis.ts";
import type { TextReview as Review } from "@riverbend/shared/schemas/review.ts";
import { decode, type Encoded, encode } from "./cache/codec.ts";

/** A candidate topic phrase in one review, with the judgement of the clause it stands in. */
export interface PhraseMention {
  /** Lemmas joined by a space: what counts group by. */
  lemma: string;
  /** The words as written, lower case: what is shown. */
  surface: string;
  /** Polarity of the judged clause containing the phrase; neutral when no judged clause does. */
  polarity: ClausePolarity;
  aspect: AspectId | null;
}

/**
 * One review with what the per-review step derived from its text, kept in the cache's compact form:
 * the aggregation reads the compact arrays directly and decodes objects only for the few reviews it
 * quotes, which keeps a 100k-review rebuild out of the garbage collector.
 */
export class AnalysedReview {
  readonly review: Review;
  readonly encoded: Encoded;
  private decoded: ReturnType<typeof decode> | undefined;

  constructor(review: Review, encoded: Encoded) {
    this.review = review;
    this.encoded = encoded;
  }

  static from(review: Review, analysis: ReviewAnalysis, phrases: readonly PhraseMention[] = []): AnalysedReview {
    return new AnalysedReview(review, encode(analysis, phrases));
  }

  get analysis(): ReviewAnalysis {
    this.decoded ??= decode(this.encoded);
    return this.decoded.analysis;
  }

  get phrases(): readonly PhraseMention[] {
    this.decoded ??= decode(this.encoded);
    return this.decoded.phrases;
  }

  get hasSuspectedSarcasm(): boolean {
    return this.encoded[1].length > 0;
  }
}
