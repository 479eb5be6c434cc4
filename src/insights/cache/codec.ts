import {
  ASPECT_IDS,
  type AspectId,
  type ClausePolarity,
  type ReviewAnalysis,
} from "@riverbend/shared/schemas/analysis.ts";
import type { PhraseMention } from "../analysed-review.ts";

/** Index of a phrase field in the flat phrase array: [lemma, surface, polarity, aspect] repeated. */
export const PHRASE_WIDTH = 4;

/**
 * Compact form of one review's analysis for the cache file: arrays of numbers and strings instead of
 * objects, so 100k entries stay small and parse fast. [aspects, sarcasm, phrases], where
 * aspects = [[aspect, polarity, start, end, clausePolarity, cue, score, ...spans], ...],
 * sarcasm = [start, end, ...] and phrases = [lemma, surface ("" when equal), polarity, aspect, ...].
 */
export type Encoded = [(number | string)[][], number[], (number | string)[]];

const POLARITIES = ["positive", "negative", "neutral", "mixed"] as const;
const CLAUSE = ["positive", "negative", "neutral"] as const;

export function encode(analysis: ReviewAnalysis, phrases: readonly PhraseMention[]): Encoded {
  const aspects = analysis.aspects.map((j) => [
    ASPECT_IDS.indexOf(j.aspect),
    POLARITIES.indexOf(j.polarity),
    ...j.evidence.flatMap((s) => [s.start, s.end, CLAUSE.indexOf(s.polarity), s.cue, s.score]),
  ]);
  const sarcasm = analysis.suspected_sarcasm.flatMap((s) => [s.start, s.end]);
  const words = phrases.flatMap((p) => [
    p.lemma,
    p.surface === p.lemma ? "" : p.surface,
    CLAUSE.indexOf(p.polarity),
    p.aspect ? ASPECT_IDS.indexOf(p.aspect) : -1,
  ]);
  return [aspects, sarcasm, words];
}

export function decode(encoded: Encoded): { analysis: ReviewAnalysis; phrases: PhraseMention[] } {
  const [aspects, sarcasm, words] = encoded;
  const analysis: ReviewAnalysis = {
    aspects: aspects.map((row) => {
      const evidence = [];
      for (let i = 2; i < row.length; i += 5) {
        evidence.push({
          start: row[i] as number,
          end: row[i + 1] as number,
          polarity: CLAUSE[row[i + 2] as number] as ClausePolarity,
          cue: row[i + 3] as string,
          score: row[i + 4] as number,
        });
      }
      return {
        aspect: ASPECT_IDS[row[0] as number] as AspectId,
        polarity: POLARITIES[row[1] as number] ?? "neutral",
        evidence,
      };
    }),
    suspected_sarcasm: [],
  };
  for (let i = 0; i < sarcasm.length; i += 2) {
    analysis.suspected_sarcasm.push({ start: sarcasm[i] as number, end: sarcasm[i + 1] as number });
  }
  const phrases: PhraseMention[] = [];
  for (let i = 0; i < words.length; i += 4) {
    const lemma = words[i] as string;
    const aspect = words[i + 3] as number;
    phrases.push({
      lemma,
      surface: (words[i + 1] as string) || lemma,
      polarity: CLAUSE[words[i + 2] as number] ?? "neutral",
      aspect: aspect < 0 ? null : (ASPECT_IDS[aspect] ?? null),
    });
  }
  return { analysis, phrases };
}
