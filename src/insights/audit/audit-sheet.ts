import { seededRandom } from "../../synth/random.ts";
import type { PublishedQuote } from "./published-quotes.ts";

/** `count` quotes drawn without replacement by a seeded shuffle: the same seed and pool, the same draw. */
export function drawSample(pool: readonly PublishedQuote[], count: number, seed: number): PublishedQuote[] {
  const items = [...pool];
  const random = seededRandom(seed);
  const n = Math.min(count, items.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (items.length - i));
    [items[i], items[j]] = [items[j] as PublishedQuote, items[i] as PublishedQuote];
  }
  return items.slice(0, n);
}

const cell = (s: string) => s.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

/**
 * The audit sheet as markdown: instructions for a reader who has not seen the analyser, then one row
 * per quote with an empty verdict column to fill in.
 */
export function auditSheet(
  sample: readonly PublishedQuote[],
  meta: { seed: number; poolSize: number; asOf: string | null; method: string },
  reviewText: (reviewId: string) => string | undefined,
): string {
  const lines = [
    `# Insights audit sheet (seed ${meta.seed})`,
    "",
    `${sample.length} quotes drawn at random from the ${meta.poolSize} quotes /insights.json publishes (as of ${meta.asOf ?? "no reviews"}, method ${meta.method}).`,
    "",
    "For each row, read the review (its text is under the table) and answer in the last column: **yes** when the quoted clause, read in its review, judges",
    "this business on the named aspect with the named polarity; **no** otherwise (it is about another business, an earlier",
    "repair by someone else, a hypothetical, the customer's own problem, another aspect, or the other polarity).",
    "",
    "| # | aspect | polarity | quote | review | published as | correct? |",
    "|---|---|---|---|---|---|---|",
  ];
  sample.forEach(({ quote, place }, i) => {
    lines.push(
      `| ${i + 1} | ${quote.aspect} | ${quote.polarity} | "${cell(quote.text)}" | [${quote.review_id}](${quote.url}) | ${place} |  |`,
    );
  });
  lines.push("", "## The reviews quoted", "");
  const ids = [...new Set(sample.map((s) => s.quote.review_id))].sort();
  for (const id of ids) {
    lines.push(`### ${id}`, "", ...(reviewText(id) ?? "(review not found)").split("\n").map((l) => `> ${l}`), "");
  }
  return `${lines.join("\n")}\n`;
}
