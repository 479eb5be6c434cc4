import type { AspectId, ClausePolarity, ReviewAnalysis } from "../../schemas/analysis.ts";
import type { PhraseMention } from "../analysed-review.ts";
import type { Tokens } from "../analysis/tokens.ts";

/** What the phrases are read from: the analyser's tokens of the review (one wink pass serves both). */
export type PhraseTokens = Pick<Tokens, "value" | "wordLemma" | "wordNormal" | "pos" | "stop" | "start">;

const WORD = /^\p{L}[\p{L}'-]*$/u;

/** The judged clause (if any) covering [start, end): its polarity and aspect. */
function judgementAt(analysis: ReviewAnalysis, start: number, end: number) {
  for (const judgement of analysis.aspects) {
    for (const span of judgement.evidence) {
      if (span.start <= start && end <= span.end) return { polarity: span.polarity, aspect: judgement.aspect };
    }
  }
  return { polarity: "neutral" as ClausePolarity, aspect: null as AspectId | null };
}

/**
 * Candidate topics of one review: the head noun of every noun group, and the head with the word
 * before it when that word is a noun or a descriptive adjective ("water heater", "hidden fee"),
 * lemmatised. Opinion adjectives ("great job") are left out: they are the judgement, not the topic.
 */
export function extractPhrases(
  tokens: PhraseTokens,
  analysis: ReviewAnalysis,
  opinionWords: ReadonlySet<string>,
): PhraseMention[] {
  const { value: values, wordLemma: lemmas, wordNormal: normals, pos, stop, start: starts } = tokens;
  const usable = (i: number) => WORD.test(values[i] ?? "") && !stop[i] && (values[i] ?? "").length > 1;
  const out: PhraseMention[] = [];
  for (let i = 0; i < values.length; i++) {
    if (pos[i] !== "NOUN" || !usable(i)) continue;
    if (pos[i + 1] === "NOUN" && usable(i + 1)) continue; // not the head of its group
    const start = starts[i] ?? 0;
    const end = start + (values[i] ?? "").length;
    const lemma = (lemmas[i] ?? "").toLowerCase();
    const surface = (normals[i] ?? "").toLowerCase();
    const here = judgementAt(analysis, start, end);
    out.push({ lemma, surface, ...here });
    const m = i - 1;
    const modifier = pos[m];
    if (m >= 0 && usable(m) && (modifier === "NOUN" || modifier === "ADJ")) {
      const word = (lemmas[m] ?? "").toLowerCase();
      if (modifier === "ADJ" && (opinionWords.has(word) || opinionWords.has((normals[m] ?? "").toLowerCase())))
        continue;
      const pair = judgementAt(analysis, starts[m] ?? 0, end);
      out.push({ lemma: `${word} ${lemma}`, surface: `${(normals[m] ?? "").toLowerCase()} ${surface}`, ...pair });
    }
  }
  return out;
}
