/**
 * What the aspect analyser reads from hand-written sentences: negation, contrast, implicit
 * judgements, counterfactuals, abstentions, sarcasm, and the general rules of lexicon 1.2.0.
 */
import { describe, expect, it } from "vitest";
import { analyzer, aspects } from "./support/insights-analysis-fixture.ts";

describe("aspect analysis: hard cases", () => {
  it("flips judgements under negation", () => {
    expect(aspects("He wasn't late and there were no hidden fees.")).toEqual({
      punctuality: "positive",
      price: "positive",
    });
    expect(aspects("Not cheap.")).toEqual({ price: "negative" });
    expect(aspects("He didn't try to upsell me.")).toEqual({ professionalism: "positive" });
    expect(aspects("No shoe covers, and mud across the carpet.")).toEqual({ cleanliness: "negative" });
  });

  it("reads contrast per clause", () => {
    expect(aspects("Pricey but worth it.")).toEqual({ price: "mixed" });
    expect(aspects("About 45 min past the window but he called ahead.")).toEqual({
      punctuality: "negative",
      communication: "positive",
    });
    expect(aspects("The office was rude, but the plumber was friendly.")).toEqual({ professionalism: "mixed" });
  });

  it("finds implicit judgements", () => {
    expect(aspects("The window was 8-12 and he came at 3.")).toEqual({ punctuality: "negative" });
    expect(aspects("The final bill was almost double the quote.")).toEqual({ price: "negative" });
    expect(aspects("Called at 7am and he was here by 9:30.")).toEqual({ responsiveness: "positive" });
    expect(aspects("Two days later it was running again.")).toEqual({ quality: "negative" });
  });

  it("covers cue families, not single phrasings", () => {
    expect(aspects("The technician was courteous and never pushy.")).toEqual({ professionalism: "positive" });
    expect(aspects("He talked down to me the whole visit.")).toEqual({ professionalism: "negative" });
    expect(aspects("She walked us through the options before starting.")).toEqual({ communication: "positive" });
    expect(aspects("He texted when he was on his way.")).toEqual({ communication: "positive" });
    expect(aspects("Nobody told us about the disposal fee.")).toEqual({ communication: "negative", price: "negative" });
    expect(aspects("They charged twice what the other company quoted.")).toEqual({ price: "negative" });
    expect(aspects("They got us in the same week.")).toEqual({ responsiveness: "positive" });
    expect(aspects("The shower works fine now.")).toEqual({ quality: "positive" });
    expect(aspects("The leak under the vanity was back within a week.")).toEqual({ quality: "negative" });
  });

  it("reads the condition of a counterfactual as unmet", () => {
    expect(aspects("Would've been five stars if he had been on time.")).toEqual({ punctuality: "negative" });
  });

  it("makes no claim from a description of the customer's problem", () => {
    expect(aspects("Our basement flooded and the drain was clogged.")).toEqual({});
    expect(aspects("He found a bad thermocouple and a cracked flange.")).toEqual({});
  });

  it("abstains without a judgement, and on overall verdicts", () => {
    expect(aspects("He gave us a quote for the repipe.")).toEqual({});
    expect(aspects("Highly recommend! Kevin was great.")).toEqual({});
  });

  it("keeps cheap/clean conditioned on the aspect", () => {
    expect(aspects("Clean install.")).toEqual({ quality: "positive" });
    expect(aspects("Quick, clean, fair.")).toEqual({
      responsiveness: "positive",
      price: "positive",
      cleanliness: "positive",
    });
  });

  it("flags praise in a 1-star review as suspected sarcasm and never counts it as praise", () => {
    const text = "The line works. Congratulations, great job on the install.";
    const low = analyzer.analyze(text, 1);
    expect(low.suspected_sarcasm).toHaveLength(1);
    expect(text.slice(low.suspected_sarcasm[0]?.start, low.suspected_sarcasm[0]?.end)).toContain("Congratulations");
    // "The line works." is a stated outcome, not praise; the ironic clause is never counted as praise.
    const quality = low.aspects.find((a) => a.aspect === "quality");
    expect(quality?.evidence.filter((e) => e.polarity === "positive").map((e) => text.slice(e.start, e.end))).toEqual([
      "The line works.",
    ]);
    const high = analyzer.analyze(text, 5);
    expect(high.suspected_sarcasm).toEqual([]);
    expect(high.aspects.find((a) => a.aspect === "quality")?.polarity).toBe("positive");
  });

  it("does not take honest praise in a 1-star review for sarcasm", () => {
    const r = analyzer.analyze("Chris himself was polite and professional. But that pricing is out of line.", 1);
    expect(r.suspected_sarcasm).toEqual([]);
    expect(Object.fromEntries(r.aspects.map((a) => [a.aspect, a.polarity]))).toEqual({
      price: "negative",
      professionalism: "positive",
    });
  });
});

describe("aspect analysis: general rules of 1.2.0", () => {
  it("compares the arrival time with the promised window or appointment", () => {
    expect(aspects("Window was 8 to 10. He showed up at 1.")).toEqual({ punctuality: "negative" });
    expect(aspects("They said sometime between 12 and 5. He got here at 6:15.")).toEqual({ punctuality: "negative" });
    expect(aspects("Was told 1-3pm, he was there at 1:05.")).toEqual({ punctuality: "positive" });
    expect(aspects("The window was 10-12 and he pulled up at 10:05.")).toEqual({ punctuality: "positive" });
    expect(aspects("He was here at 7:58 for an 8:00 appointment.")).toEqual({ punctuality: "positive" });
  });

  it("compares the final bill with the quote", () => {
    // Also read as a weak communication complaint: a known extra reading (insights-failure-classes).
    expect(aspects("They quoted $289 on the phone and the invoice was $612.").price).toBe("negative");
    expect(aspects("The quote was $1,200 and the final bill was $1,200.")).toEqual({ price: "positive" });
  });

  it("does not credit this business with what another one did", () => {
    expect(aspects("We had a handyman flush it and it's been fine since.")).toEqual({});
    expect(aspects("Ended up going with another company who came out in an hour.")).toEqual({});
  });

  it("reads a worry or a purpose as no judgement", () => {
    expect(aspects("Was worried it would be a huge mess, but they vacuumed after.")).toEqual({
      cleanliness: "positive",
    });
    expect(aspects("They called the next day to make sure everything was still working.")).toEqual({
      communication: "positive",
    });
  });

  it("lets an opinion word follow a conditioned word to the aspect it resolved to", () => {
    expect(aspects("Nice neat work.")).toEqual({ quality: "positive" });
  });

  it("covers lead times, recurrences and make-goods phrased in other words", () => {
    expect(aspects("The first available appointment was over a week out.")).toEqual({ responsiveness: "negative" });
    expect(aspects("Booked a repipe two weeks out.")).toEqual({});
    expect(aspects("It took them four days to call me back.")).toEqual({ responsiveness: "negative" });
    expect(aspects("The new faucet already has a drip after two weeks.")).toEqual({ quality: "negative" });
    expect(aspects("The toilet doesn't run anymore.")).toEqual({ quality: "positive" });
    expect(aspects("Charged me for a part he never replaced.")).toEqual({ price: "negative" });
    expect(aspects("The price didn't change.")).toEqual({ price: "positive" });
    expect(aspects("He didn't leave a mess.")).toEqual({ cleanliness: "positive" });
    expect(aspects("Talked us through the options.")).toEqual({ communication: "positive" });
    expect(aspects("He was a little gruff.")).toEqual({ professionalism: "negative" });
  });
});
