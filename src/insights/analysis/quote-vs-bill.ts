// Implicit price judgements: the final bill read against the quote ("almost double the quote",
// "$640 over"). Called by analyze-review.ts with the review's tokens.
import type { Clause } from "./clauses.ts";
import type { IdiomHit } from "./score-clause.ts";
import type { Tokens } from "./tokens.ts";

/** Lemmas shortly before an amount that make it the quoted price, or the price finally charged. */
const QUOTE_WORDS = new Set(["quote", "quoted", "estimate", "estimated", "bid"]);
const FINAL_WORDS = new Set([
  "invoice",
  "bill",
  "final",
  "total",
  "charge",
  "charged",
  "billed",
  "pay",
  "paid",
  "came",
]);
/** How many tokens before an amount its quote or final word may stand, and how many sentences apart the two may be. */
const MONEY_REACH = 6;
const MONEY_SENTENCES = 2;

/** The amount a "$" token or a number before "dollars"/"bucks" stands for, or NaN. */
function amountAt(tokens: Tokens, i: number): number {
  const form = tokens.normal[i] as string;
  const c = form.charCodeAt(0);
  if (c < 48 || c > 57) return Number.NaN;
  const prev = tokens.normal[i - 1];
  const next = tokens.normal[i + 1];
  if (prev !== "$" && next !== "dollars" && next !== "bucks") return Number.NaN;
  let value = 0;
  for (let k = 0; k < form.length; k++) {
    const d = form.charCodeAt(k);
    if (d >= 48 && d <= 57) value = value * 10 + d - 48;
    else if (d === 46) break;
    else if (d !== 44) return Number.NaN;
  }
  return next === "k" ? value * 1000 : value;
}

/** Which of the two word sets stands nearest before token `i` in its sentence: "quote", "final" or null. */
function amountRole(tokens: Tokens, i: number, sentenceStart: number): "quote" | "final" | null {
  for (let k = i - 1; k >= Math.max(sentenceStart, i - MONEY_REACH); k--) {
    const lemma = tokens.lemma[k] as string;
    const form = tokens.normal[k] as string;
    if (QUOTE_WORDS.has(form) || QUOTE_WORDS.has(lemma)) return "quote";
    if (FINAL_WORDS.has(form) || FINAL_WORDS.has(lemma)) return "final";
  }
  return null;
}

/**
 * The final bill against the quote, when the review gives both as amounts ("quoted $289 ... the invoice was
 * $612", "the quote was $1,200 and the final bill was $1,200"): more than 10% over is price negative, at or
 * under the quote positive. One linear pass over the tokens; the judgement counts for the clause of the bill.
 */
export function quoteHits(tokens: Tokens, clauses: Clause[], out: IdiomHit[][]) {
  let quote = Number.NaN;
  let quoteSentence = -1;
  let sentence = 0;
  for (let i = 0; i < tokens.normal.length; i++) {
    while (sentence < tokens.sentences.length && i > ((tokens.sentences[sentence] as number[])[1] as number))
      sentence++;
    const amount = amountAt(tokens, i);
    if (Number.isNaN(amount) || amount === 0) continue;
    const start = ((tokens.sentences[sentence] as number[] | undefined)?.[0] as number | undefined) ?? 0;
    const role = amountRole(tokens, i, start);
    if (role === "quote" && Number.isNaN(quote)) {
      quote = amount;
      quoteSentence = sentence;
    } else if (role === "final" && !Number.isNaN(quote) && sentence - quoteSentence <= MONEY_SENTENCES) {
      const valence = amount > quote * 1.1 ? -2 : amount <= quote ? 2 : 0;
      const clause = clauses.findIndex((c) => i >= c.first && i < c.last);
      if (valence !== 0 && clause >= 0) {
        (out[clause] as IdiomHit[]).push({
          aspect: "price",
          valence,
          id: valence > 0 ? "bill-matched-quote" : "bill-over-quote",
          at: tokens.start[i] as number,
        });
      }
      return;
    }
  }
}
