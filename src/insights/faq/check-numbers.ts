import type { AspectId } from "@riverbend/shared/schemas/analysis.ts";
import type { PolarityCounts } from "@riverbend/shared/schemas/insights.ts";
import { ASPECT_TEXT } from "../aspects/labels.ts";
import { ASPECT_WORDS, MENTION_WORDS, NEGATIVE_WORDS, nearest, POSITIVE_WORDS, positions } from "./claim-words.ts";

export interface Figures {
  aspects: ReadonlyMap<AspectId, PolarityCounts>;
  reviewCount: number;
  reviewsWithText: number;
}

type Sense = "positive" | "negative" | "mention";
type Qualifier = "over" | "under" | "about" | "exact";

/** A number written in editor text: "over 95%", "23 of 25", "40 reviews". */
interface Claim {
  written: string;
  at: number;
  kind: "percent" | "pair" | "count";
  value: number;
  of?: number;
  qualifier: Qualifier;
}

const QUALIFIER = String.raw`(?:(over|more than|at least|above|under|less than|fewer than|below|about|around|roughly|nearly|almost|approximately|some|~)\s*)?`;
const CLAIM = new RegExp(
  `${QUALIFIER}(?:(\\d+(?:\\.\\d+)?)\\s*(?:%|percent\\b|per cent\\b)|(\\d+)\\s+(?:of|out of)\\s+(\\d+)\\b|(\\d+)\\s+(?:reviews|reviewers|customers|people)\\b)`,
  "gi",
);

function qualifierOf(word: string | undefined): Qualifier {
  if (!word) return "exact";
  if (/^(over|more than|at least|above)$/i.test(word)) return "over";
  if (/^(under|less than|fewer than|below)$/i.test(word)) return "under";
  return "about";
}

function claimsIn(sentence: string): Claim[] {
  return [...sentence.matchAll(CLAIM)].map((m) => {
    const qualifier = qualifierOf(m[1]);
    const base = { written: m[0], at: m.index, qualifier };
    if (m[2]) return { ...base, kind: "percent", value: Number(m[2]) };
    if (m[3]) return { ...base, kind: "pair", value: Number(m[3]), of: Number(m[4]) };
    return { ...base, kind: "count", value: Number(m[5]) };
  });
}

/** Does the written number agree with the actual one, given how it was qualified? */
function agrees(claim: Claim, written: number, actual: number, percent: boolean): boolean {
  const slack = percent ? 3 : Math.max(1, actual * 0.05);
  switch (claim.qualifier) {
    case "over":
      return actual >= written;
    case "under":
      return actual <= written;
    case "about":
      return Math.abs(actual - written) <= slack;
    default:
      return percent ? Math.abs(actual - written) < 1 : actual === written;
  }
}

const pct = (n: number, d: number) => (d === 0 ? 0 : (100 * n) / d);

/** What the reviews give for one reading of a claim, or undefined when the claim matches it. */
function check(claim: Claim, sense: Sense, c: PolarityCounts, f: Figures, noun: string): string | undefined {
  const part = sense === "positive" ? c.positive : sense === "negative" ? c.negative : c.mentions;
  const whole = sense === "mention" ? f.reviewsWithText : c.mentions;
  const polar = c.positive + c.negative;
  const what = sense === "mention" ? `of reviews mention ${noun}` : `of ${noun} mentions are ${sense}`;
  if (claim.kind === "percent") {
    const alternatives =
      sense === "mention"
        ? [[part, whole]]
        : [
            [part, whole],
            [part, polar],
          ];
    if (alternatives.some(([n, d]) => d !== 0 && agrees(claim, claim.value, pct(n ?? 0, d ?? 0), true))) return;
    return `says "${claim.written}" ${what}, the reviews give ${Math.round(pct(part, whole))}% (${part} of ${whole})`;
  }
  if (claim.kind === "pair") {
    const wholes = sense === "mention" ? [f.reviewsWithText, f.reviewCount] : [c.mentions, polar];
    if (agrees(claim, claim.value, part, false) && wholes.includes(claim.of ?? -1)) return;
    return `says "${claim.written}" ${what}, the reviews give ${part} of ${whole}`;
  }
  if (agrees(claim, claim.value, part, false)) return;
  return `says "${claim.written}" ${what}, the reviews give ${part}`;
}

/**
 * Word positions with no other number and no bracket, colon or semicolon between them and the
 * claim: in "(41 reviews: 40 positive, 1 negative)", neither word is about the 41.
 */
function reachable<K>(sentence: string, claim: Claim, words: [K, number[]][]): [K, number[]][] {
  const end = claim.at + claim.written.length;
  const clear = (p: number) => !/[\d():;]/.test(p < claim.at ? sentence.slice(p, claim.at) : sentence.slice(end, p));
  return words.map(([sense, list]) => [sense, list.filter(clear)]);
}

/**
 * Checks every checkable number of an editor text against the figures: percentages, "N of M" and
 * "N reviews" in a sentence with an aspect word, read with the nearest polarity word (positive or
 * negative), else as a mention rate when the sentence says "mention"; with neither the editor gets
 * the benefit of both readings (share positive, mention rate). "Based on
 * / from / across N reviews" in a sentence without an aspect word must be the review count; other
 * counts there ("Sacramento (43 reviews)", "5000 customers") are about something else and not checked. Returns one message per
 * contradicted number.
 */
export function checkNumbers(text: string, figures: Figures): string[] {
  const problems: string[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    const aspects = (Object.keys(ASPECT_WORDS) as AspectId[]).map(
      (id) => [id, positions(ASPECT_WORDS[id], sentence)] as [AspectId, number[]],
    );
    const polarities: [Sense, number[]][] = [
      ["positive", positions(POSITIVE_WORDS, sentence)],
      ["negative", positions(NEGATIVE_WORDS, sentence)],
    ];
    const mentions = positions(MENTION_WORDS, sentence);
    for (const claim of claimsIn(sentence)) {
      const aspect = nearest(claim.at, reachable(sentence, claim, aspects));
      if (!aspect) {
        const counts = [figures.reviewCount, figures.reviewsWithText];
        const before = sentence.slice(Math.max(0, claim.at - 20), claim.at);
        const aboutReviews =
          claim.kind === "count" &&
          /reviews?$/i.test(claim.written) &&
          /\b(?:based on|from|across|total of|all|have|has|with)\s+$/i.test(before);
        if (aboutReviews && !counts.some((n) => agrees(claim, claim.value, n, false))) {
          problems.push(`says "${claim.written}", the data has ${figures.reviewCount} reviews`);
        }
        continue;
      }
      const counts = figures.aspects.get(aspect);
      if (!counts) continue;
      // "of punctuality mentions are positive": a polarity word decides; "mention" alone means a mention rate.
      const sense =
        nearest(claim.at, reachable(sentence, claim, polarities)) ?? (mentions.length > 0 ? "mention" : undefined);
      const readings: Sense[] = sense ? [sense] : ["positive", "mention"];
      const failures = readings.map((s) => check(claim, s, counts, figures, ASPECT_TEXT[aspect].noun));
      if (failures.every((f) => f !== undefined)) problems.push(failures[0] as string);
    }
  }
  return problems;
}
