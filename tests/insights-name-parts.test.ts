/**
 * An evaluative word written as part of a name (a street, a town, a company, a pet) judges nothing
 * (issue 13's failure class "a place or a person whose name contains an evaluative word"), while the
 * same words written as judgements, in capitals or not, still judge.
 */
import { describe, expect, it } from "vitest";
import { loadLexicon } from "../src/insights/analysis/analyze-review.ts";
import { compileLexicon } from "../src/insights/analysis/compile.ts";
import { tokenize } from "../src/insights/analysis/tokens.ts";
import { aspects } from "./support/insights-analysis-fixture.ts";

const lex = compileLexicon(loadLexicon().lexicon);
const renamed = (text: string) => {
  const t = tokenize(text, lex.personNames, lex.nameWords);
  return t.value.filter((_, i) => t.normal[i] === "<name>" && t.wordNormal[i] !== "<name>");
};

describe("an evaluative word inside a name", () => {
  it.each([
    ["We live on Fair Oaks Blvd in Carmichael.", ["Fair"]],
    ["An outfit called Honest Abe's Plumbing came first.", ["Honest"]],
    ["The rental is off Pleasant Valley Rd.", ["Pleasant"]],
    ["We tried Good Samaritan Plumbing last year.", ["Good"]],
    ["Our cat named Happy watched the whole time.", ["Happy"]],
    ["Our place near Happy Valley Road flooded.", ["Happy"]],
  ])("is a name in %s", (text, names) => {
    expect(renamed(text)).toEqual(names);
  });

  it.each([
    "He was Super Fast and Very Professional.",
    "Shout out to Kevin Awesome work on the heater.",
    "Great Job on the water heater.",
    "The price was FAIR and the work was GREAT.",
    "Marcus was Great.",
  ])("stays a judgement in %s", (text) => {
    expect(renamed(text)).toEqual([]);
  });
});

describe("the analyser reads no judgement from a name", () => {
  it.each([
    ["The rental is on Fair Oaks Blvd in Carmichael.", 5],
    ["Before Riverbend, an outfit called Honest Abe's Plumbing looked at it.", 4],
    ["The house is on Pleasant Hill Drive.", 5],
  ])("%s", (text, rating) => {
    expect(aspects(text, rating)).toEqual({});
  });
  it("while a judgement beside the name still counts", () => {
    expect(aspects("We live on Fair Oaks Blvd and the price was fair.", 5)).toEqual({ price: "positive" });
  });
});
