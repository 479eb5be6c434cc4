/**
 * The exact rule layer's own reading (before the learned layer): the sign it gives each aspect. These are
 * the constructions where a cue's word and its meaning point different ways, each a class of phrasings.
 */
import { describe, expect, it } from "vitest";
import { analyzer } from "./support/insights-analysis-fixture.ts";

/** The sign of the rule layer's reading per aspect, summed over the clauses; aspects read at 0 left out. */
function ruleSigns(text: string): Record<string, "+" | "-"> {
  const sums = new Map<string, number>();
  for (const score of analyzer.readContext(text, 3).scores) {
    for (const a of score.aspects) sums.set(a.aspect, (sums.get(a.aspect) ?? 0) + a.score);
  }
  return Object.fromEntries([...sums].filter(([, s]) => s !== 0).map(([a, s]) => [a, s > 0 ? "+" : "-"]));
}

describe("a wish or an unmet condition names what did not happen", () => {
  it.each([
    ["Would have been nice to know upfront.", { communication: "-" }],
    ["They should have told us up front.", { communication: "-" }],
    ["I just wish they'd tell you upfront that the fee is separate.", { communication: "-" }],
    ["If they had told me upfront, I would have said no.", { communication: "-" }],
    ["Would've been five stars if he'd been on time.", { punctuality: "-" }],
  ])("%s", (text, signs) => {
    expect(ruleSigns(text)).toMatchObject(signs);
  });
  it.each([
    ["If you need a plumber, they are great and always on time.", { punctuality: "+" }],
    ["He told us the price up front.", { communication: "+" }],
  ])("while a real condition or a plain statement keeps its sign: %s", (text, signs) => {
    expect(ruleSigns(text)).toMatchObject(signs);
  });
});

describe("a mess that was cleaned up is cleanliness praised", () => {
  it.each([
    "He wiped the grout dust off the tub before leaving.",
    "Bagged up all his mess and took it with him.",
    "He hosed the mud off the patio.",
    "He left no mess.",
  ])("%s", (text) => {
    expect(ruleSigns(text)).toMatchObject({ cleanliness: "+" });
  });
  it.each(["He tracked mud across the carpet.", "Left a mess under the sink.", "He didn't clean up the mess."])(
    "while a mess left behind is not: %s",
    (text) => {
      expect(ruleSigns(text)).toMatchObject({ cleanliness: "-" });
    },
  );
});

describe("a word of the aspect whose sign depends on context is read as a mention only", () => {
  it.each([
    ["The office pushed the install date twice.", "professionalism"],
    ["I've asked for an itemized explanation twice.", "communication"],
    ["We called on a holiday weekend.", "responsiveness"],
    ["I left a message.", "responsiveness"],
  ])("%s gives %s no sign", (text, aspect) => {
    expect(ruleSigns(text)[aspect]).toBeUndefined();
  });
});

describe("an expectation is not a judgement", () => {
  it.each(["I expected to get ripped off.", "Honestly I was expecting to pay a fortune."])("%s", (text) => {
    expect(ruleSigns(text)).toEqual({});
  });
});
