import { readFileSync } from "node:fs";
import path from "node:path";
import type { AspectId, AspectPolarity, ClausePolarity } from "@riverbend/shared/schemas/analysis.ts";
import type { TextReview as Review } from "@riverbend/shared/schemas/review.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AnalysedReview } from "../src/insights/analysed-review.ts";
import { GATED_CUE_PREFIX } from "../src/insights/analysis/quote-gates.ts";
import { buildAspects } from "../src/insights/aspects/build-aspects.ts";
import { polarityCounts } from "../src/insights/aspects/counts.ts";
import { selectEvidence } from "../src/insights/aspects/evidence.ts";
import { Judgements } from "../src/insights/aspects/judgements.ts";
import { buildTrend, monthsBetween } from "../src/insights/aspects/trend.ts";
import { wilsonLowerBound } from "../src/insights/aspects/wilson.ts";
import { THRESHOLDS } from "../src/insights/thresholds.ts";

const FIXTURE = path.join(import.meta.dirname, "fixtures/insights-aggregation/reviews.json");
const permalink = (id: string) => `https://reviews.test/reviews/${id}/`;

interface FixtureReview {
  id: string;
  date: string;
  rating: number;
  technicians: string[];
  text: string;
  aspects: {
    aspect: AspectId;
    polarity: AspectPolarity;
    evidence: { quote: string; polarity: ClausePolarity; cue: string }[];
  }[];
}

function review(fields: Pick<Review, "id" | "date" | "rating" | "text" | "technicians">): Review {
  return {
    ...fields,
    author: { name: "Test R." },
    verified: true,
    verification: { method: "job_record" },
    source: "direct",
    services: [],
    service_area: "sacramento",
  };
}

/** Signed margins of clauses the analyser is sure of (quotable). */
const CONFIDENT = { positive: 3, negative: -3, neutral: 0 } as const;

/** The fixture names evidence by its quote; offsets are found in the text, so a typo fails loudly. */
function loadItems(): AnalysedReview[] {
  const raw = JSON.parse(readFileSync(FIXTURE, "utf8")) as FixtureReview[];
  return raw.map((r) =>
    AnalysedReview.from(review(r), {
      suspected_sarcasm: [],
      aspects: r.aspects.map((a) => ({
        aspect: a.aspect,
        polarity: a.polarity,
        evidence: a.evidence.map((e) => {
          const start = r.text.indexOf(e.quote);
          if (start < 0) throw new Error(`${r.id}: "${e.quote}" is not in the text`);
          return { start, end: start + e.quote.length, polarity: e.polarity, cue: e.cue, score: CONFIDENT[e.polarity] };
        }),
      })),
    }),
  );
}

/** A review with one judgement per listed aspect, for counting tests. */
function judged(
  id: string,
  date: string,
  polarities: Partial<Record<AspectId, AspectPolarity>>,
  margin = 3,
): AnalysedReview {
  const text = "Some review text.";
  return AnalysedReview.from(review({ id, date, rating: 5, text, technicians: [] }), {
    suspected_sarcasm: [],
    aspects: Object.entries(polarities).map(([aspect, polarity]) => ({
      aspect: aspect as AspectId,
      polarity: polarity as AspectPolarity,
      evidence: [
        {
          start: 0,
          end: text.length,
          polarity: polarity === "negative" ? "negative" : "positive",
          cue: "x",
          score: polarity === "negative" ? -margin : margin,
        },
      ],
    })),
  });
}

describe("Wilson lower bound", () => {
  it("matches hand-computed values", () => {
    // (p + z²/2n − z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n), z = 1.96, worked by hand.
    expect(wilsonLowerBound(8, 10, 1.96)).toBeCloseTo(0.4902, 4);
    expect(wilsonLowerBound(5, 5, 1.96)).toBeCloseTo(0.5655, 4);
    expect(wilsonLowerBound(0, 5, 1.96)).toBe(0);
    expect(wilsonLowerBound(23, 26, 1.96)).toBeCloseTo(0.7102, 4);
  });
});

describe("aspect counts", () => {
  it("adds up and publishes share_positive only from min_polar_reviews positive+negative on", () => {
    const below = polarityCounts({ positive: 3, negative: 1, neutral: 2, mixed: 4 }, THRESHOLDS);
    expect(below.mentions).toBe(10);
    expect(below.share_positive).toBeNull();
    expect(below.wilson_lower).toBeNull();
    const at = polarityCounts({ positive: 4, negative: 1, neutral: 0, mixed: 0 }, THRESHOLDS);
    expect(at.share_positive).toBe(0.8);
    expect(at.wilson_lower).toBeCloseTo(0.3755, 4);
  });

  it("counts each review once per aspect, with mention_rate over all reviews", () => {
    const items = new Judgements(loadItems());
    const punctuality = buildAspects(items, THRESHOLDS, permalink).find((a) => a.id === "punctuality");
    expect(punctuality).toMatchObject({ mentions: 7, positive: 6, negative: 1, neutral: 0, mixed: 0 });
    expect(punctuality?.mention_rate).toBe(1);
    const price = buildAspects(items, THRESHOLDS, permalink).find((a) => a.id === "price");
    expect(price).toMatchObject({ mentions: 1, mixed: 1, share_positive: null });
  });
});

describe("evidence", () => {
  const items = new Judgements(loadItems());

  it("counts a reading the analyser is unsure of for the review but never quotes it", () => {
    const unsure = judged("2025-03-01-unsure", "2025-03-01", { price: "negative" }, THRESHOLDS.quote_min_margin / 2);
    const sure = judged("2025-02-01-sure", "2025-02-01", { price: "negative" });
    const judgements = new Judgements([unsure, sure]);
    const price = buildAspects(judgements, THRESHOLDS, permalink).find((a) => a.id === "price");
    expect(price).toMatchObject({ mentions: 2, negative: 2 });
    expect(price?.evidence.negative.map((q) => q.review_id)).toEqual(["2025-02-01-sure"]);
    const alone = new Judgements([unsure]);
    expect(selectEvidence(alone, "price", "negative", THRESHOLDS, permalink)).toEqual([]);
  });

  it("never quotes a reading counted below zero log-odds (a detection threshold under 0), whatever its size", () => {
    const below = -2 * THRESHOLDS.quote_min_margin;
    for (const polarity of ["positive", "negative"] as const) {
      const weak = judged(`2025-03-01-${polarity}`, "2025-03-01", { price: polarity }, below);
      const price = buildAspects(new Judgements([weak]), THRESHOLDS, permalink).find((a) => a.id === "price");
      expect(price).toMatchObject({ mentions: 1, [polarity]: 1 });
      expect(selectEvidence(new Judgements([weak]), "price", polarity, THRESHOLDS, permalink)).toEqual([]);
    }
  });

  it("never quotes a clause the quote gates hold back, however sure the model is", () => {
    const text = "Shower valve replacement in our ranch.";
    const item = (cue: string) =>
      AnalysedReview.from(review({ id: `2025-01-01-${cue}`, date: "2025-01-01", rating: 5, text, technicians: [] }), {
        suspected_sarcasm: [],
        aspects: [
          {
            aspect: "quality",
            polarity: "positive",
            evidence: [
              { start: 0, end: text.length, polarity: "positive", cue, score: THRESHOLDS.quote_min_margin * 1.5 },
            ],
          },
        ],
      });
    expect(selectEvidence(new Judgements([item("works")]), "quality", "positive", THRESHOLDS, permalink)).toHaveLength(
      1,
    );
    expect(
      selectEvidence(new Judgements([item(`${GATED_CUE_PREFIX}no-cue`)]), "quality", "positive", THRESHOLDS, permalink),
    ).toEqual([]);
  });

  it("quotes a neutral clause only when the exact lukewarm rule made it neutral", () => {
    const text = "It was okay, I suppose. They quoted $300.";
    const item = (cue: string) =>
      AnalysedReview.from(review({ id: `2025-01-01-${cue}`, date: "2025-01-01", rating: 3, text, technicians: [] }), {
        suspected_sarcasm: [],
        aspects: [
          {
            aspect: "price",
            polarity: "neutral",
            evidence: [{ start: 0, end: 22, polarity: "neutral", cue, score: 0 }],
          },
        ],
      });
    expect(selectEvidence(new Judgements([item("lukewarm")]), "price", "neutral", THRESHOLDS, permalink)).toHaveLength(
      1,
    );
    expect(selectEvidence(new Judgements([item("model")]), "price", "neutral", THRESHOLDS, permalink)).toEqual([]);
  });

  it("quotes a rare concern exactly as it quotes praise", () => {
    const negative = selectEvidence(items, "punctuality", "negative", THRESHOLDS, permalink);
    expect(negative.map((q) => q.text)).toEqual(["Marcus was three hours late."]);
  });

  it("takes one quote per review, newest first, spread across technicians, and never a clause over 160 characters", () => {
    const positive = selectEvidence(items, "punctuality", "positive", THRESHOLDS, permalink);
    // Newest is Luis; the next two Luis reviews give way to Kevin (short clause: the long one is skipped) and Dana.
    expect(positive.map((q) => q.review_id)).toEqual([
      "2025-06-20-luis-newest",
      "2025-05-20-kevin-short",
      "2025-05-02-dana-window",
    ]);
    for (const quote of positive) expect(quote.text.length).toBeLessThanOrEqual(160);
  });

  it("quotes exact substrings at [start, end)", () => {
    const byId = new Map(items.items.map((i) => [i.review.id, i.review.text]));
    for (const aspect of buildAspects(items, THRESHOLDS, permalink)) {
      for (const quote of Object.values(aspect.evidence).flat()) {
        expect(byId.get(quote.review_id)?.slice(quote.start, quote.end)).toBe(quote.text);
      }
    }
  });
});

describe("trend", () => {
  it("lists every month between the first and the last", () => {
    expect(monthsBetween("2024-11", "2025-02")).toEqual(["2024-11", "2024-12", "2025-01", "2025-02"]);
  });

  it("stays monthly when the median month has enough mentions", () => {
    const items = ["2025-01", "2025-02", "2025-03"].flatMap((m) =>
      [1, 2, 3].map((d) => judged(`${m}-0${d}-r`, `${m}-0${d}`, { price: d === 3 ? "negative" : "positive" })),
    );
    const trend = buildTrend(new Judgements(items), "price", monthsBetween("2025-01", "2025-03"), THRESHOLDS);
    expect(trend.granularity).toBe("month");
    expect(trend.points.map((p) => [p.period, p.mentions, p.positive, p.negative])).toEqual([
      ["2025-01", 3, 2, 1],
      ["2025-02", 3, 2, 1],
      ["2025-03", 3, 2, 1],
    ]);
  });

  it("rolls sparse months up to quarters, empty periods included, and the sums still add up", () => {
    const items = [
      judged("a", "2025-01-05", { price: "positive" }),
      judged("b", "2025-02-05", { price: "negative" }),
      judged("c", "2025-03-05", { price: "mixed" }),
      judged("d", "2025-08-05", { price: "positive" }),
    ];
    const trend = buildTrend(new Judgements(items), "price", monthsBetween("2025-01", "2025-08"), THRESHOLDS);
    expect(trend.granularity).toBe("quarter");
    expect(trend.points.map((p) => [p.period, p.mentions, p.positive, p.negative])).toEqual([
      ["2025-Q1", 3, 1, 1],
      ["2025-Q2", 0, 0, 0],
      ["2025-Q3", 1, 1, 0],
    ]);
  });
});

describe("aggregation invariants", () => {
  const polarity = fc.constantFrom<AspectPolarity | undefined>("positive", "negative", "neutral", "mixed", undefined);
  const reviewArb = fc.record({
    date: fc.date({ min: new Date("2023-01-01"), max: new Date("2026-12-31"), noInvalidDate: true }),
    price: polarity,
    quality: polarity,
  });

  it("for any reviews: buckets add up to mentions, trends to the same total, a quote in every non-empty polar bucket", () => {
    fc.assert(
      fc.property(fc.array(reviewArb, { maxLength: 60 }), (raw) => {
        const items = raw
          .map((r, i) => {
            const date = r.date.toISOString().slice(0, 10);
            const polarities: Partial<Record<AspectId, AspectPolarity>> = {};
            if (r.price) polarities.price = r.price;
            if (r.quality) polarities.quality = r.quality;
            return judged(`${date}-r${String(i).padStart(3, "0")}`, date, polarities);
          })
          .sort((a, b) => (a.review.id < b.review.id ? 1 : -1));
        for (const a of buildAspects(new Judgements(items), THRESHOLDS, permalink)) {
          expect(a.positive + a.negative + a.neutral + a.mixed).toBe(a.mentions);
          expect(a.trend.points.reduce((sum, p) => sum + p.mentions, 0)).toBe(a.mentions);
          expect(a.share_positive === null).toBe(a.positive + a.negative < THRESHOLDS.min_polar_reviews);
          for (const bucket of ["positive", "negative", "mixed"] as const) {
            expect(a.evidence[bucket].length).toBe(Math.min(a[bucket], THRESHOLDS.max_quotes));
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
