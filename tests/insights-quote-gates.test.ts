/**
 * Quote gates (issue 13, point 4): classes of clauses the analyser may count but never publishes as a
 * quote, each with several phrasings written for these tests (not taken from any labelled set or audit),
 * and the near neighbours each gate must leave quotable.
 */

import type { AspectId, ClausePolarity } from "@riverbend/shared/schemas/analysis.ts";
import { describe, expect, it } from "vitest";
import { quoteGate } from "../src/insights/analysis/quote-gates.ts";
import { quotable } from "../src/insights/aspects/evidence.ts";
import { THRESHOLDS } from "../src/insights/thresholds.ts";
import { analyzer } from "./support/insights-analysis-fixture.ts";

/** The gate the clause containing `part` meets when read as `aspect` with `polarity`. */
function gateOf(text: string, part: string, aspect: AspectId, polarity: ClausePolarity, rating = 3) {
  const review = analyzer.readContext(text, rating);
  const at = text.indexOf(part);
  const i = review.clauses.findIndex((c) => c.start <= at && at < c.end);
  expect(i, `no clause holds "${part}"`).toBeGreaterThanOrEqual(0);
  const cued = review.scores[i]?.aspects.some((a) => a.aspect === aspect && a.cue !== "") ?? false;
  return quoteGate(review, i, aspect, polarity, cued);
}

/** Every quotable clause of the analysis, as text. */
function quotes(text: string, rating: number): string[] {
  return analyzer
    .analyze(text, rating)
    .aspects.flatMap((a) =>
      a.evidence.filter((s) => quotable(s, text, THRESHOLDS)).map((s) => text.slice(s.start, s.end)),
    );
}

type GateCase = [text: string, part: string, aspect: AspectId, polarity: ClausePolarity];

describe("another person's or company's earlier work is never a quote", () => {
  const cases: GateCase[] = [
    [
      "We had a handyman look at it in the spring. He replaced the flapper and it was good as new.",
      "He replaced",
      "quality",
      "positive",
    ],
    [
      "The first outfit we called sent someone out. They charged $400 and fixed nothing.",
      "They charged",
      "quality",
      "negative",
    ],
    [
      "Our previous plumber installed the heater. He did a careful job on the venting.",
      "He did",
      "quality",
      "positive",
    ],
  ];
  it.each(cases)("%s", (text, part, aspect, polarity) => {
    expect(gateOf(text, part, aspect, polarity)).toBe("other-party");
  });
  it("a pronoun after a clause about this business's own technician is not about another party", () => {
    expect(
      gateOf("Marco came the same day. He replaced the flapper in ten minutes.", "He replaced", "quality", "positive"),
    ).not.toBe("other-party");
  });
  it("a new subject ends the chain: the next clause about this business is not gated", () => {
    expect(
      gateOf("The handyman made it worse. Marco fixed it properly in an hour.", "Marco fixed", "quality", "positive"),
    ).toBeNull();
  });
});

describe("a bare amount or a flat statement of the charge is not a price judgement", () => {
  const cases: GateCase[] = [
    ["They billed $300 and walked out.", "They billed", "price", "negative"],
    ["They billed $300 and the faucet still drips.", "They billed", "price", "negative"],
    ["Final invoice: $2,950.", "Final invoice", "price", "positive"],
    ["The total came to $480 for the visit.", "The total", "price", "negative"],
    ["He charged us the trip fee plus parts.", "He charged", "price", "positive"],
  ];
  it.each(cases)("%s", (text, part, aspect, polarity) => {
    expect(gateOf(text, part, aspect, polarity)).toBe("bare-amount");
  });
  it.each([
    ["$480 felt steep for half an hour of work.", "felt steep", "negative"],
    ["Very fair price for a Sunday call.", "fair price", "positive"],
  ] as const)("a charge with a judgement stays quotable: %s", (text, part, polarity) => {
    expect(gateOf(text, part, "price", polarity)).toBeNull();
  });
});

describe("the object of the job is not cleanliness", () => {
  const cases: GateCase[] = [
    ["He cleaned the drain and ran a camera down the line.", "cleaned the drain", "cleanliness", "positive"],
    ["They cleaned out the sump pit and replaced the float.", "cleaned out", "cleanliness", "positive"],
    ["Cleaning the P-trap took him twenty minutes.", "Cleaning", "cleanliness", "positive"],
    ["She cleaned the aerator and the pressure came right back.", "cleaned the aerator", "cleanliness", "positive"],
  ];
  it.each(cases)("%s", (text, part, aspect, polarity) => {
    expect(gateOf(text, part, aspect, polarity)).toBe("job-object");
  });
  it.each([
    ["He cleaned up after himself.", "cleaned up"],
    ["They cleaned the floor before they left.", "cleaned the floor"],
    ["The bathroom was left clean.", "left clean"],
  ])("cleaning the home stays quotable: %s", (text, part) => {
    expect(gateOf(text, part, "cleanliness", "positive")).toBeNull();
  });
});

describe("a clause with no cue of its aspect and only a vague evaluation is not quoted", () => {
  const cases: [string, string, number][] = [
    [
      "Called them for the water heater. The difference is too big to ignore.",
      "The difference is too big to ignore",
      5,
    ],
    [
      "Luis handled the kitchen sink. Honestly it was all so much better than I expected.",
      "it was all so much better than I expected",
      5,
    ],
    ["Booked the repipe in May. Never again, what a letdown.", "what a letdown", 1],
    ["The whole thing was just something else.", "The whole thing was just something else", 5],
  ];
  it.each(cases)("%s", (text, part, rating) => {
    for (const quote of quotes(text, rating)) expect(quote).not.toContain(part);
  });
  it("the gate itself: a reading without a cue of its aspect is not quotable", () => {
    expect(gateOf("Honestly it was all so much better than I expected.", "Honestly", "quality", "positive")).toBe(
      "no-cue",
    );
  });
});

describe("what the gates leave alone", () => {
  it.each([
    ["Marco showed up on time and left the place spotless.", 5, "spotless"],
    ["The bill was $200 over the written quote.", 2, "over the written quote"],
  ])("%s is still quoted", (text, rating, part) => {
    expect(quotes(text, rating).some((q) => q.includes(part))).toBe(true);
  });
});
