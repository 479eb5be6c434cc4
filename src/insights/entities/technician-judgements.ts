import { ASPECT_IDS, type AspectId } from "@riverbend/shared/schemas/analysis.ts";
import type { AnalysedReview } from "../analysed-review.ts";
import { emptyTally, type Tally } from "../aspects/judgements.ts";

/** Aspects that are the office's, the schedule's or the price list's: they count for the business only. */
const BUSINESS_ASPECTS: ReadonlySet<AspectId> = new Set(["price", "responsiveness"]);

/** A sentence about the office, the schedule or the company rather than the person who did the job. */
const OFFICE =
  /\b(?:office|dispatch\w*|schedul\w*|receptionist|front desk|phone|call cent(?:er|re)|billing|invoice|management|manager|owner|company|they|their|them)\b/i;
/** Words that refer back to the technician in a sentence that does not name them. */
const REFERS_BACK = /^\W*(?:he|she|his|her|him)\b|\b(?:the|our|my) (?:tech|technician|plumber)\b/i;

const CLAUSE = ["positive", "negative", "neutral"] as const;

function sentenceSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /[^.!?\n]+[.!?]*/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/**
 * The sentences of a review that are about one technician: those that name them, and the chain of
 * sentences after a naming one that refer back ("he", "the tech") without turning to the office; when the
 * technician is the review's only one, any sentence that refers to "the tech" or starts with he/she.
 */
function aboutSentences(text: string, names: RegExp, others: RegExp | null, only: boolean): [number, number][] {
  const about: [number, number][] = [];
  let chain = false;
  for (const [start, end] of sentenceSpans(text)) {
    const sentence = text.slice(start, end);
    const named = names.test(sentence);
    const other = others?.test(sentence) ?? false;
    if (named && !other) chain = true;
    else if (other || OFFICE.test(sentence) || !REFERS_BACK.test(sentence)) chain = false;
    if (named || (!other && (chain || only) && REFERS_BACK.test(sentence) && !OFFICE.test(sentence))) {
      about.push([start, end]);
    }
  }
  return about;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Case-sensitive whole-word alternation of names ("Marcus B.", "Marcus"). */
export function namePattern(names: readonly string[]): RegExp | null {
  const parts = [...new Set(names)].filter((n) => n.length > 0).map(escapeRegExp);
  return parts.length === 0 ? null : new RegExp(`(?<![\\p{L}])(?:${parts.join("|")})(?![\\p{L}])`, "u");
}

/**
 * Per aspect, the technician's judgements over their reviews, counted only from clauses about them
 * (issue 13, point 7): a clause counts when it lies in a sentence about the technician; price and
 * responsiveness never count for a person. A review counts once per aspect: mixed when its clauses about
 * the technician go both ways.
 */
export function technicianTallies(
  items: readonly AnalysedReview[],
  indices: readonly number[],
  names: RegExp,
  others: RegExp | null,
  ownReviews: ReadonlySet<number>,
): Map<AspectId, Tally> {
  const tallies = new Map(ASPECT_IDS.map((a) => [a, emptyTally()]));
  for (const index of indices) {
    const item = items[index] as AnalysedReview;
    const rows = item.encoded[0].filter((row) => !BUSINESS_ASPECTS.has(ASPECT_IDS[row[0] as number] as AspectId));
    if (rows.length === 0) continue;
    const about = aboutSentences(item.review.text, names, others, ownReviews.has(index));
    if (about.length === 0) continue;
    for (const row of rows) {
      let pos = false;
      let neg = false;
      let any = false;
      for (let i = 2; i < row.length; i += 5) {
        const start = row[i] as number;
        if (!about.some(([s, e]) => start >= s && start < e)) continue;
        any = true;
        const polarity = CLAUSE[row[i + 2] as number];
        if (polarity === "positive") pos = true;
        if (polarity === "negative") neg = true;
      }
      if (!any) continue;
      const tally = tallies.get(ASPECT_IDS[row[0] as number] as AspectId) as Tally;
      tally[pos && neg ? "mixed" : pos ? "positive" : neg ? "negative" : "neutral"]++;
    }
  }
  return tallies;
}
