/**
 * The failure classes of issue 13, each a class of sentences written for these tests (not taken from any
 * labelled set): what the analyser must read, and what it must never claim. Labels follow LABELLING.md.
 */
import { describe, expect, it } from "vitest";
import { quotable } from "../src/insights/aspects/evidence.ts";
import { THRESHOLDS } from "../src/insights/thresholds.ts";
import { analyzer, aspects } from "./support/insights-analysis-fixture.ts";

type Case = [text: string, rating: number, expected: Record<string, string>];

const CLASSES: Record<string, Case[]> = {
  "a flat charge is no judgement of price unless its context says so": [
    ["$950 for one valve.", 1, { price: "negative" }],
    ["We got a quote of $2,400 and are still deciding.", 3, { price: "neutral" }],
    // LABELLING.md: a charge stated flatly is price neutral; the drip judges the work, not the price.
    ["They billed $300 and walked out, and the faucet still drips.", 2, { price: "neutral", quality: "negative" }],
  ],
  "amounts and durations take their sign from context": [
    ["Three hours before anyone picked up the emergency number.", 1, { responsiveness: "negative" }],
    ["No one has called me back in a week.", 1, { responsiveness: "negative" }],
    ["Called back within ten minutes.", 5, { responsiveness: "positive" }],
    ["Told 9 to 11, here at 9:20.", 5, { punctuality: "positive" }],
    ["Window was 8 to 10. He showed up at 1.", 3, { punctuality: "negative" }],
  ],
  "other businesses and earlier repairs by others are never credited to this one": [
    ["The first company we called never showed up.", 5, {}],
    ["Got a quote from a competitor for twice as much.", 5, {}],
    ["The previous handyman's work was a disaster.", 5, {}],
    ["Ended up going with another company who came out in an hour.", 1, {}],
  ],
  "the customer's own problem is no judgement": [
    ["Our basement flooded and the drain was clogged.", 4, {}],
    ["He found a bad thermocouple and a cracked flange.", 4, {}],
  ],
  "lukewarm judgements are neutral": [
    ["Install was fine, nothing special.", 3, { quality: "neutral" }],
    ["The repair is decent I guess.", 3, { quality: "neutral" }],
  ],
  "a word cue is read in its context": [
    ["Hardly any dust left behind.", 5, { cleanliness: "positive" }],
    ["Our tech Bill Goodman was great.", 5, {}],
    ["The technician was courteous and never pushy.", 5, { professionalism: "positive" }],
  ],
  "sarcasm in a low-rated review is never published as praise": [
    ["Great job guys, the toilet is running again after two days.", 1, { quality: "negative" }],
    ["Wonderful, now it leaks twice as fast.", 1, { quality: "negative" }],
  ],
};

/**
 * Sentences read right except for one weak extra aspect that the current model also counts (a precision
 * miss; since aspect-model/2.3.0 the detection threshold, chosen by cross-validation, trades some precision
 * for recall). Each must still read its
 * labelled aspects as labelled, the extra reading must never be quotable, and `it.fails` turns red once
 * the model reads the sentence exactly as labelled. Rating undefined: a text without stars.
 */
const KNOWN_EXTRA: [text: string, rating: number | undefined, expected: Record<string, string>][] = [
  ["Price was fine, nothing special.", 3, { price: "neutral" }],
  ["The work was okay, I guess.", 3, { quality: "neutral" }],
  ["They quoted $289 on the phone and the invoice was $612.", undefined, { price: "negative" }],
];

describe.each(Object.entries(CLASSES))("%s", (_, cases) => {
  it.each(cases)("%s (%i stars)", (text, rating, expected) => {
    expect(aspects(text, rating)).toEqual(expected);
  });
});

describe("known extra readings of aspect-model/2.5.0", () => {
  it.each(KNOWN_EXTRA)("%s (%s stars) reads its labelled aspects as labelled", (text, rating, expected) => {
    expect(aspects(text, rating)).toMatchObject(expected);
  });
  it.each(KNOWN_EXTRA)("%s (%s stars) never quotes an aspect it is not labelled with", (text, rating, expected) => {
    for (const judgement of analyzer.analyze(text, rating).aspects) {
      if (judgement.aspect in expected) continue;
      expect(judgement.evidence.filter((span) => quotable(span, text, THRESHOLDS))).toEqual([]);
    }
  });
  it.fails.each(KNOWN_EXTRA)("%s (%s stars) is not yet read exactly as labelled", (text, rating, expected) => {
    expect(aspects(text, rating)).toEqual(expected);
  });
});
