import { describe, expect, it } from "vitest";
import { shareRepeatedStrings } from "../sidecar/src/bundle/share-strings.ts";
import { loadDataset } from "../src/data/load-dataset.ts";
import { generateReviews } from "../src/synth/generate.ts";

describe("sharing the reviews' repeated strings at load", () => {
  it("leaves every review exactly as it was (sample and synthetic reviews, with replies and edits)", () => {
    const { business, reviews } = loadDataset("data");
    const synthetic = [...generateReviews(business, { reviews: 2_000, seed: 7, endDate: "2026-11-01", years: 3 })];
    const all = [...reviews, ...synthetic];
    // The sample has replies, edits and localities, so every optional branch runs.
    expect(all.some((r) => r.response) && all.some((r) => r.updated) && all.some((r) => r.author.locality)).toBe(true);
    const before = structuredClone(all);
    shareRepeatedStrings(all);
    expect(all).toEqual(before);
    expect(JSON.stringify(all)).toBe(JSON.stringify(before));
  });
});
