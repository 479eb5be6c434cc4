/**
 * Quote gates, second set (issue 13, point 4): a published quote must carry its aspect and polarity when
 * read on its own, about this business. Each class has phrasings written for these tests and the near
 * cases that must stay quotable. Counting is not touched by any gate (the eval figures stay the same).
 */

import type { AspectId, ClausePolarity } from "@riverbend/shared/schemas/analysis.ts";
import { describe, expect, it } from "vitest";
import { quoteGate } from "../src/insights/analysis/quote-gates.ts";
import { quotable } from "../src/insights/aspects/evidence.ts";
import { THRESHOLDS } from "../src/insights/thresholds.ts";
import { analyzer } from "./support/insights-analysis-fixture.ts";

function gateOf(text: string, part: string, aspect: AspectId, polarity: ClausePolarity, rating = 3) {
  const review = analyzer.readContext(text, rating);
  const at = text.indexOf(part);
  const i = review.clauses.findIndex((c) => c.start <= at && at < c.end);
  expect(i, `no clause holds "${part}"`).toBeGreaterThanOrEqual(0);
  const cued = review.scores[i]?.aspects.some((a) => a.aspect === aspect && a.cue !== "") ?? false;
  return quoteGate(review, i, aspect, polarity, cued);
}

function quotes(text: string, rating: number): string[] {
  return analyzer
    .analyze(text, rating)
    .aspects.flatMap((a) =>
      a.evidence.filter((s) => quotable(s, text, THRESHOLDS)).map((s) => text.slice(s.start, s.end)),
    );
}

type Case = [text: string, part: string, aspect: AspectId, polarity: ClausePolarity, rating: number];

function gated(name: string, gate: string, cases: Case[], near: Case[]) {
  describe(name, () => {
    it.each(cases)("%s", (text, part, aspect, polarity, rating) => {
      expect(gateOf(text, part, aspect, polarity, rating)).toBe(gate);
    });
    it.each(near)("stays quotable: %s", (text, part, aspect, polarity, rating) => {
      expect(gateOf(text, part, aspect, polarity, rating)).toBeNull();
    });
  });
}

gated(
  "a charge given as a label and an amount is not a price judgement",
  "bare-amount",
  [
    ["Final bill: $1,875.", "Final bill", "price", "negative", 2],
    ["Total invoice: $640.", "Total invoice", "price", "positive", 5],
    ["Came to $450 total.", "Came to", "price", "negative", 3],
    ["The invoice came to $2,310 with parts and labor.", "The invoice", "price", "negative", 1],
    ["Grand total was $980.", "Grand total", "price", "positive", 4],
  ],
  [
    ["Final bill: $1,875, way over the written quote.", "Final bill", "price", "negative", 2],
    ["Came to $450, which felt fair for a Sunday.", "Came to", "price", "positive", 5],
    ["Total was $300, really reasonable.", "Total was", "price", "positive", 5],
  ],
);

gated(
  "a pronoun or a sentence that goes on about another party's earlier work is not about this business",
  "other-party",
  [
    [
      "We had a handyman look at it first. He patched it, but it leaked again.",
      "it leaked again",
      "quality",
      "negative",
      3,
    ],
    [
      "Our handyman was sure it was the drain. He resealed it, and a week later the floor was wet again.",
      "a week later the floor was wet again",
      "quality",
      "negative",
      3,
    ],
    [
      "A handyman came out first. He swapped the cartridge and it dripped worse.",
      "He swapped",
      "quality",
      "negative",
      4,
    ],
    [
      "Our old plumber put in the softener. He ran it wrong, and it never worked.",
      "and it never",
      "quality",
      "negative",
      4,
    ],
  ],
  [
    ["The handyman made it worse. Marco fixed it properly in an hour.", "Marco fixed", "quality", "positive", 5],
    ["Marco came out first. He fixed it properly in an hour.", "He fixed", "quality", "positive", 5],
  ],
);

gated(
  "a vague evaluation with no word of an aspect is not quality",
  "vague",
  [
    ["Honestly the difference is too big to ignore.", "the difference", "quality", "negative", 1],
    ["The gap was too big.", "The gap", "quality", "negative", 2],
  ],
  [["The new heater is the right size and works great.", "works great", "quality", "positive", 5]],
);

describe("a clause with no word of its aspect is not quoted, lukewarm or not", () => {
  it.each([
    ["It just wasn't right.", 2],
    ["It was okay, I guess.", 3],
    ["Not what I hoped for, honestly.", 2],
  ] as const)("%s", (text, rating) => {
    expect(quotes(text, rating)).toEqual([]);
  });
});

gated(
  "a complaint the reviewer excuses in the same sentence is not quoted against the business",
  "excused",
  [
    ["The part took a week, though honestly that's not on them.", "The part took", "responsiveness", "negative", 4],
    [
      "The valve was on backorder for ten days, which wasn't their fault.",
      "The valve",
      "responsiveness",
      "negative",
      4,
    ],
    ["It took a while to get the permit, but I don't blame them.", "It took a while", "responsiveness", "negative", 4],
    [
      "The part we picked took two weeks, although that isn't really on them.",
      "The part we picked took",
      "responsiveness",
      "negative",
      4,
    ],
    [
      "The part was on backorder for two weeks; the supplier delay was out of their hands.",
      "The part",
      "responsiveness",
      "negative",
      3,
    ],
  ],
  [
    ["The part took a week and nobody told us why.", "The part took", "responsiveness", "negative", 2],
    ["The part took a week. That's on them.", "The part took", "responsiveness", "negative", 2],
  ],
);

gated(
  "a quote must carry its published polarity on its own",
  "polarity",
  [
    ["Kinda pricey.", "pricey", "price", "positive", 4],
    ["A bit expensive for what it was.", "expensive", "price", "positive", 4],
    ["Maybe if you'd shown up on time.", "Maybe if", "punctuality", "positive", 1],
    ["Would have been nice if he was on time.", "on time", "punctuality", "positive", 2],
    ["Jake was polite.", "polite", "professionalism", "neutral", 4],
  ],
  [
    ["Kinda pricey.", "pricey", "price", "negative", 4],
    ["He was on time.", "on time", "punctuality", "positive", 2],
    ["Maybe the best plumber we've had, and on time.", "on time", "punctuality", "positive", 5],
    ["Jake was polite.", "polite", "professionalism", "positive", 4],
  ],
);

gated(
  "an evaluation of the price is price, not professionalism",
  "aspect-of-price",
  [
    ["Honest pricing.", "Honest", "professionalism", "positive", 5],
    ["Very honest quote, no games.", "honest", "professionalism", "positive", 5],
  ],
  [["Honest guy, told us we didn't need a new heater.", "Honest", "professionalism", "positive", 5]],
);

gated(
  "praise of people with no trait named stands for no aspect",
  "no-trait",
  [
    ["Great guys.", "Great", "professionalism", "positive", 5],
    ["Such nice people!", "nice", "professionalism", "positive", 5],
    ["good dude", "good", "professionalism", "positive", 5],
    ["Really great people.", "great", "professionalism", "positive", 5],
  ],
  [
    ["Great guys, very polite.", "polite", "professionalism", "positive", 5],
    ["Nice guy and very respectful of our home.", "respectful", "professionalism", "positive", 5],
  ],
);

gated(
  "a promise told without what came of it is not quoted for or against the business",
  "promise-only",
  [
    [
      "Called at 10pm with no hot water, was told someone would call back within 30 minutes.",
      "was told someone",
      "responsiveness",
      "negative",
      1,
    ],
    ["They told me someone would call back the same day.", "They told", "responsiveness", "positive", 2],
    ["Dispatch said the tech would text when he was on his way.", "Dispatch said", "communication", "positive", 2],
  ],
  [
    ["They said they'd call back and never did.", "They said", "communication", "negative", 1],
    ["He told me they would call back the same day, and nobody did.", "He told me", "communication", "negative", 2],
    ["Nobody called back for three days.", "Nobody called", "communication", "negative", 1],
  ],
);

gated(
  "a business introduced by name is another party, in its own clause or in the clauses that go on about it",
  "other-party",
  [
    [
      "We first tried a company named Bright Pipes, which never showed up.",
      "a company named",
      "punctuality",
      "negative",
      5,
    ],
    [
      "Before them we used an outfit called Honest Abe's Plumbing. They were rude and overcharged us.",
      "They were rude",
      "professionalism",
      "negative",
      4,
    ],
  ],
  [["Riverbend was rude and overcharged us.", "Riverbend was", "professionalism", "negative", 2]],
);

gated(
  "another business named by its place in the story is another party",
  "other-party",
  [
    ["The cheapest company never called back, and the other quote was $2,300.", "The cheapest", "price", "positive", 5],
    ["We got three bids and the other plumbers wanted twice the price.", "We got three", "price", "positive", 5],
  ],
  [["No complaints, he texted when he was on his way.", "No complaints", "communication", "positive", 5]],
);

gated(
  "a clause that announces a complaint is never praise",
  "polarity",
  [
    ["My only gripe is that the text came after he was already late.", "My only gripe", "communication", "positive", 4],
    [
      "One complaint: the on-my-way text came an hour into the window.",
      "One complaint",
      "communication",
      "positive",
      4,
    ],
  ],
  [["No complaints, he texted when he was on his way.", "No complaints", "communication", "positive", 5]],
);

gated(
  "a wish or a counterfactual is not quoted: it names what did not happen",
  "unreal",
  [
    ["The first repair should have been a full replacement.", "The first repair", "quality", "positive", 3],
    ["Honestly I would have paid double the price.", "Honestly", "price", "negative", 5],
    ["I wish the repair had lasted longer.", "I wish", "quality", "positive", 3],
    ["Would have been nice to know upfront.", "Would have", "communication", "negative", 3],
  ],
  [["They told us about the fee up front.", "They told", "communication", "positive", 5]],
);

gated(
  "a word in scare quotes or a lukewarm clause about two aspects does not carry the published polarity",
  "polarity",
  [
    ["Kevin 'fixed' the kitchen faucet and now it sprays.", "Kevin", "quality", "positive", 1],
    ['The "professional" crew left the gate open.', "The", "professionalism", "positive", 2],
    ["The heater works, price was about average.", "The heater", "quality", "neutral", 3],
  ],
  [
    ['He said "no problem" and fixed it in ten minutes.', "He said", "quality", "positive", 5],
    ["The price was about average, I suppose.", "The price", "price", "neutral", 3],
  ],
);
