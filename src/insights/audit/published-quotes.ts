import type { InsightsDocument, Quote } from "@riverbend/shared/schemas/insights.ts";

/** A quote as the document publishes it, with what it is published for. */
export interface PublishedQuote {
  quote: Quote;
  /** Where it appears: "aspects.price.negative", "faq.on-time", "summary", "topics.arrival-window". */
  place: string;
}

/**
 * Every quote /insights.json publishes, once per (review, span, aspect, polarity): the pool an audit
 * draws from. Order is the document's, so a seed always draws the same quotes from the same document.
 */
export function publishedQuotes(document: InsightsDocument): PublishedQuote[] {
  const out: PublishedQuote[] = [];
  const seen = new Set<string>();
  const add = (quote: Quote, place: string) => {
    const key = `${quote.review_id}|${quote.start}|${quote.end}|${quote.aspect}|${quote.polarity}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ quote, place });
  };
  for (const a of document.aspects) {
    for (const [bucket, quotes] of Object.entries(a.evidence)) {
      for (const q of quotes) add(q, `aspects.${a.id}.${bucket}`);
    }
  }
  for (const entry of document.faq) for (const q of entry.evidence) add(q, `faq.${entry.id}`);
  for (const q of document.summary.evidence) add(q, "summary");
  for (const t of document.topics) for (const q of t.quotes) add(q, `topics.${t.id}`);
  return out;
}
