/**
 * Topics customers weigh (issue 13, point 8): judgement phrases in judged clauses, never object nouns
 * alone; counts with a sentiment split, quotes and review ids; a static listing per topic.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type InsightsDocument, InsightsDocumentSchema } from "@riverbend/shared/schemas/insights.ts";
import type { TopicCatalogue } from "@riverbend/shared/schemas/insights-data.ts";
import type { TextReview } from "@riverbend/shared/schemas/review.ts";
import { describe, expect, inject, it } from "vitest";
import { AnalysedReview } from "../src/insights/analysed-review.ts";
import { encode } from "../src/insights/cache/codec.ts";
import { THRESHOLDS } from "../src/insights/thresholds.ts";
import { compileTopics, matchTopics } from "../src/insights/topics/match-topics.ts";
import { rankTopics } from "../src/insights/topics/rank-topics.ts";
import { analyzer } from "./support/insights-analysis-fixture.ts";

const catalogue: TopicCatalogue = JSON.parse(readFileSync("data/insights/topics.json", "utf8"));
const topics = compileTopics(catalogue);

function topicsOf(text: string, rating: number): Record<string, string> {
  const mentions = matchTopics(text, analyzer.analyze(text, rating), topics);
  return Object.fromEntries(mentions.map((m) => [m.lemma, m.polarity]));
}

function item(id: string, text: string, rating: number): AnalysedReview {
  const review = { id, date: "2026-01-01", rating, text, technicians: [], services: [] } as unknown as TextReview;
  const analysis = analyzer.analyze(text, rating);
  return new AnalysedReview(review, encode(analysis, matchTopics(text, analysis, topics)));
}

describe("topic mentions", () => {
  it("are judgements with the polarity of their clause", () => {
    expect(topicsOf("The window was 8 to 12 and he came at 3.", 2)).toMatchObject({ "arrival-window": "negative" });
    expect(topicsOf("The final bill was $400 over the written quote.", 1)).toMatchObject({
      "quote-vs-bill": "negative",
    });
    expect(topicsOf("He spent twenty minutes pushing a $9,000 repipe on me.", 2)).toMatchObject({
      upselling: "negative",
    });
    expect(topicsOf("He wore shoe covers the whole time.", 5)).toMatchObject({ "shoe-covers": "positive" });
  });

  it("are never an object noun in a clause that judges nothing", () => {
    expect(topicsOf("He replaced the valve and the toilet flapper.", 4)).toEqual({});
    expect(topicsOf("We got a quote of $2,400 and are still deciding.", 3)["quote-vs-bill"] ?? "neutral").not.toMatch(
      /positive|negative/,
    );
  });
});

describe("ranked topics", () => {
  const items = [
    item("r4", "He showed up two hours late.", 2),
    item("r3", "He arrived right on time and was polite.", 5),
    item("r2", "Arrived late. Still, he was on time the second visit.", 3),
    item("r1", "On time, fixed it.", 5),
  ];
  const { topics: ranked, listings } = rankTopics(
    items,
    catalogue,
    THRESHOLDS,
    (id) => `https://x.test/reviews/${id}/`,
  );
  const arrival = ranked.find((t) => t.id === "arrival-window");

  it("count each review once, split by sentiment, with newest review ids first", () => {
    expect(arrival).toMatchObject({ reviews: 4, positive: 2, negative: 1, mixed: 1, neutral: 0 });
    expect(arrival?.review_ids).toEqual(["r4", "r3", "r2", "r1"]);
    expect(listings.find((l) => l.id === "arrival-window")?.reviews).toEqual([0, 1, 2, 3]);
  });

  it("back each side with the newest quote of that polarity, and drop topics below the threshold", () => {
    expect(arrival?.quotes.map((q) => [q.review_id, q.polarity])).toEqual([
      ["r4", "negative"],
      ["r3", "positive"],
    ]);
    for (const t of ranked) expect(t.reviews).toBeGreaterThanOrEqual(THRESHOLDS.topic_min_reviews);
  });
});

describe("topic listings of the sample build", () => {
  const dist = inject("sampleDist");
  const doc: InsightsDocument = InsightsDocumentSchema.parse(
    JSON.parse(readFileSync(path.join(dist, "insights.json"), "utf8")),
  );

  it("have a static page per topic listing exactly its reviews", () => {
    expect(doc.topics.length).toBeGreaterThan(3);
    for (const topic of doc.topics) {
      const page = readFileSync(path.join(dist, "reviews", "topic", topic.id, "index.html"), "utf8");
      expect(page).toContain(`data-total="${topic.reviews}"`);
      for (const id of topic.review_ids.slice(0, 5)) expect(page).toContain(`/reviews/${id}/`);
    }
  });
});
