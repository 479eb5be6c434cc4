/**
 * Every number that decides what the insights show, published in `method.thresholds` so a reader
 * can tell why a figure is absent. Concerns and strengths share the same thresholds on purpose.
 */
export const THRESHOLDS = {
  /** share_positive and its Wilson bound need this many positive + negative reviews. */
  min_polar_reviews: 5,
  /** z of the Wilson score interval (95 %). */
  wilson_z: 1.96,
  /** A month with fewer mentions (median over the span) makes the trend quarterly. */
  trend_min_monthly_mentions: 3,
  /** Quotes per polarity bucket of an aspect. */
  max_quotes: 3,
  /** Longest quote, in characters: a longer clause is not quoted at all rather than cut. */
  max_quote_chars: 160,
  /**
   * A clause is quoted only when the learned layer's log-odds for its aspect and polarity reach this (a neutral
   * clause: when it is lukewarm by the exact rule), and it passes the quote gates (analysis/quote-gates.ts). A weaker reading still counts for the review;
   * it is not published as what the review says (quote audit target: >= 95 % of quotes correct).
   */
  quote_min_margin: 1.5,
  /** Technicians get an aspect breakdown from this many linked reviews on. */
  entity_min_reviews: 3,
  /** A topic needs this many reviews ... */
  topic_min_reviews: 3,
  max_topics: 16,
  /** review_ids listed per topic, newest first; `reviews` has the full count. */
  topic_review_ids: 50,
  /** A computed FAQ answer about an aspect needs this many mentions. */
  faq_min_mentions: 5,
  /** An aspect is named as a strength or a concern in the generated summary from this many reviews on. */
  summary_min_reviews: 3,
  /** ... and in at least this share of the reviews that mention the aspect, to be named a concern. */
  concern_min_share: 0.2,
} as const;

export type Thresholds = typeof THRESHOLDS;

/** Version of the aggregation (this folder minus the analyser); part of method.version. */
export const AGGREGATION_VERSION = "insights/1.0.0";
