import { describe, expect, it } from "vitest";
import { forgottenWords, tokenize } from "../src/insights/analysis/tokens.ts";

// Words wink's model lacks, in contexts where wink caches them whole ("year's." caches "year's"); once
// cached, wink would keep them whole everywhere ("a year's worth" would become one token fewer).
const teachers = ["It was a year's.", "(Mike's)", "The plumber's.", "A co-op's.", "We paid $450.00.", "re-piped."];
const probes = [
  "A year's worth of leaks.",
  "Best plumber's work.",
  "(year's)",
  "co-op's sink",
  "Mike's crew re-piped it",
];

const read = (text: string) => {
  const t = tokenize(text);
  return { value: t.value, lemma: t.lemma, pos: t.pos, sentences: t.sentences };
};

describe("tokenising is independent of the texts read before", () => {
  it("gives the same tokens, lemmas, tags and sentences before and after texts that would teach wink new words", () => {
    const before = probes.map(read);
    const forgotten = forgottenWords();
    for (const text of teachers) tokenize(text);
    // The teachers did add unknown words to wink's cache, and the engine forgot them.
    expect(forgottenWords()).toBeGreaterThan(forgotten);
    expect(probes.map(read)).toEqual(before);
    // As a fresh wink reads it: the possessive split off.
    expect(before[0]?.value.slice(0, 4)).toEqual(["A", "year", "'s", "worth"]);
  });
});

describe("every token has a lemma", () => {
  it.each(["Two other plumbers couldnt.", "he wouldnt.", "They shouldnt.", "It doesnt."])(
    "even a contraction written without its apostrophe: %s",
    (text) => {
      const t = tokenize(text);
      expect(t.lemma.every((l) => typeof l === "string" && l.length > 0)).toBe(true);
      expect(t.wordLemma.every((l) => typeof l === "string" && l.length > 0)).toBe(true);
    },
  );
});
