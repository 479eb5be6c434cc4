/**
 * Technicians are judged only by what is said about them (issue 13, point 7), and no star figures are
 * published for a person unless business.json asks; services count by the job's structured field (point 9).
 */
import { readFileSync } from "node:fs";
import { hasText, type TextReview } from "@riverbend/shared/schemas/review.ts";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { AnalysedReview } from "../src/insights/analysed-review.ts";
import { Judgements } from "../src/insights/aspects/judgements.ts";
import { buildEntities } from "../src/insights/entities/build-entities.ts";
import { namePattern, technicianTallies } from "../src/insights/entities/technician-judgements.ts";
import { THRESHOLDS } from "../src/insights/thresholds.ts";
import { analyzer } from "./support/insights-analysis-fixture.ts";

function item(text: string, rating: number, technicians: string[] = []): AnalysedReview {
  const review = { id: "r", date: "2026-01-01", rating, text, technicians, services: [] } as unknown as TextReview;
  return AnalysedReview.from(review, analyzer.analyze(text, rating));
}

const kevin = namePattern(["Kevin T.", "Kevin"]) as RegExp;
const others = namePattern(["Luis O.", "Luis", "Marcus"]);

function tallyFor(items: AnalysedReview[], own: number[] = []) {
  const t = technicianTallies(
    items,
    items.map((_, i) => i),
    kevin,
    others,
    new Set(own),
  );
  return Object.fromEntries([...t].filter(([, c]) => c.positive + c.negative + c.neutral + c.mixed > 0));
}

describe("technician judgements", () => {
  it("counts office, scheduling and price complaints for the business, not the technician", () => {
    const t = tallyFor([
      item(
        "Kevin was polite and explained everything. The office was rude on the phone and the bill was twice the quote.",
        2,
      ),
    ]);
    expect(t.professionalism).toMatchObject({ positive: 1, negative: 0 });
    expect(t.price).toBeUndefined();
    expect(t.responsiveness).toBeUndefined();
  });

  it("gives the technician nothing when the customer says the technician was not the problem", () => {
    const t = tallyFor([
      item(
        "Kevin was not the problem. The scheduling was a mess and nobody from the office called us back for a week.",
        1,
      ),
    ]);
    expect(t).toEqual({});
  });

  it("never credits a technician with what is said about a colleague", () => {
    const t = tallyFor([
      item("Luis was rude and left a mess. Kevin came the next day, was courteous and cleaned up.", 3),
    ]);
    expect(t.professionalism).toMatchObject({ positive: 1, negative: 0 });
    expect(t.cleanliness?.negative ?? 0).toBe(0);
  });

  it("follows a chain of sentences that refer back to the named technician", () => {
    const t = tallyFor([item("Kevin showed up at 9. He was friendly and very respectful of our home.", 5)]);
    expect(t.professionalism).toMatchObject({ positive: 1 });
  });
});

describe("technician star figures and service counts in the entities", () => {
  const dataset = loadDataset("data");
  const items = dataset.reviews
    .filter(hasText)
    .slice(0, 80)
    .map((r) => AnalysedReview.from(r, analyzer.analyze(r.text, r.rating)));
  const judgements = new Judgements(items);
  const aliases = JSON.parse(readFileSync("data/insights/entities.json", "utf8"));

  it("publishes no star average or distribution per technician by default, and both when business.json asks", () => {
    const off = buildEntities(dataset.business, aliases, judgements, THRESHOLDS);
    expect(off.technicians.some((t) => t.review_count > 0)).toBe(true);
    for (const t of off.technicians) expect([t.rating_value, t.distribution]).toEqual([null, null]);
    const business = { ...dataset.business, insights: { technician_ratings: true } };
    const on = buildEntities(business, aliases, judgements, THRESHOLDS);
    const rated = on.technicians.filter((t) => t.review_count > 0);
    expect(rated.every((t) => t.rating_value !== null && t.distribution !== null)).toBe(true);
  });

  it("counts a review toward a service only when the job was that service", () => {
    const { services } = buildEntities(dataset.business, aliases, judgements, THRESHOLDS);
    for (const s of services) {
      expect(s.text_mentions).toBe(0);
      expect(s.review_count).toBe(items.filter((i) => i.review.services.includes(s.id)).length);
    }
  });
});
