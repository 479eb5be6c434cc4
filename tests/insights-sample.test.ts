import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type InsightsDocument, InsightsDocumentSchema, type Quote } from "@riverbend/shared/schemas/insights.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { describe, expect, inject, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { checkNumbers } from "../src/insights/faq/check-numbers.ts";
import { serializeInsights } from "../src/insights/serialize.ts";
import { computeInsights } from "../src/insights/step/compute-insights.ts";
import { concerns } from "../src/insights/summary/generate-summary.ts";
import { THRESHOLDS } from "../src/insights/thresholds.ts";
import { TEST_SITE_URL } from "./support/global-setup.ts";

const file = path.join(inject("sampleDist"), "insights.json");
const published = readFileSync(file, "utf8");
const doc: InsightsDocument = InsightsDocumentSchema.parse(JSON.parse(published));
const dataset = loadDataset("data");
const texts = new Map(dataset.reviews.map((r) => [r.id, r]));

function allQuotes(d: InsightsDocument): Quote[] {
  return [
    ...d.aspects.flatMap((a) => Object.values(a.evidence).flat()),
    ...d.faq.flatMap((f) => f.evidence),
    ...d.summary.evidence,
  ];
}

describe("the sample build's /insights.json", () => {
  it("quotes every clause exactly: text is the review's text at [start, end), with its date and rating", () => {
    const quotes = allQuotes(doc);
    expect(quotes.length).toBeGreaterThan(20);
    for (const quote of quotes) {
      const review = texts.get(quote.review_id);
      expect(review?.text?.slice(quote.start, quote.end), quote.review_id).toBe(quote.text);
      expect([review?.date, review?.rating]).toEqual([quote.date, quote.rating]);
      expect(quote.text.length).toBeLessThanOrEqual(THRESHOLDS.max_quote_chars);
      expect(quote.url).toBe(`${TEST_SITE_URL}/reviews/${quote.review_id}/`);
    }
  });

  it("has counts that add up, shares only above the threshold, and quotes in every non-empty bucket", () => {
    expect(doc.review_count).toBe(dataset.reviews.length);
    expect(doc.as_of).toBe(dataset.reviews[0]?.date);
    const rows = [
      ...doc.aspects,
      ...Object.values(doc.entities).flatMap((list) => list.flatMap((e) => e.aspects ?? [])),
    ];
    for (const a of rows) {
      expect(a.positive + a.negative + a.neutral + a.mixed).toBe(a.mentions);
      expect(a.share_positive === null).toBe(a.positive + a.negative < THRESHOLDS.min_polar_reviews);
    }
    for (const a of doc.aspects) {
      const trend = a.trend.points.reduce((sum, p) => sum + p.mentions, 0);
      expect(trend).toBe(a.mentions);
      for (const bucket of ["positive", "negative", "mixed"] as const) {
        if (a[bucket] > 0) expect(a.evidence[bucket].length, `${a.id} ${bucket}`).toBeGreaterThan(0);
      }
    }
  });

  it("links technicians, gives aspect breakdowns only from 3 reviews, and keeps topics above the thresholds", () => {
    for (const t of doc.entities.technicians) {
      expect(t.aspects === null).toBe(t.review_count < THRESHOLDS.entity_min_reviews);
      expect(t.aliases).not.toContain("Chris");
    }
    expect(doc.topics.length).toBeGreaterThan(0);
    for (const topic of doc.topics) {
      expect(topic.reviews).toBeGreaterThanOrEqual(THRESHOLDS.topic_min_reviews);
      expect(topic.positive + topic.negative + topic.neutral + topic.mixed).toBe(topic.reviews);
      for (const quote of topic.quotes) expect(topic.aspects).toContain(quote.aspect);
    }
  });

  it("writes FAQ answers and a summary whose every number agrees with the figures", () => {
    const figures = {
      aspects: new Map(doc.aspects.map((a) => [a.id, a])),
      reviewCount: doc.review_count,
      reviewsWithText: doc.reviews_with_text,
    };
    // The emergency answer counts the reviews of emergency jobs, a subset the whole-business figures do not hold.
    for (const entry of doc.faq.filter((f) => f.id !== "emergencies")) {
      expect(checkNumbers(entry.answer, figures), entry.id).toEqual([]);
    }
    expect(checkNumbers(doc.summary.text, figures)).toEqual([]);
    // Every concern that passes the threshold is named, with its denominator.
    for (const a of concerns(doc.aspects, THRESHOLDS)) {
      expect(doc.summary.text).toContain(
        `${a.negative} of ${a.mentions} reviews that mention ${a.id === "quality" ? "quality of work" : a.id} are negative`,
      );
    }
    expect(doc.summary.source).toBe("generated");
    // The emergency answer rests on the reviews of emergency jobs, by the structured service field.
    const jobs = dataset.reviews.filter((r) => r.services.includes("emergency-plumbing")).length;
    expect(doc.faq.find((f) => f.id === "emergencies")?.answer).toContain(`${jobs} reviews are of emergency jobs.`);
  });

  it("is byte-identical when computed again from scratch", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "insights-sample-"));
    try {
      cpSync("data/insights", path.join(root, "data/insights"), { recursive: true });
      const again = await computeInsights({ root, dataDir: "data", dataset, urls: siteUrls(TEST_SITE_URL) });
      expect(serializeInsights(again.document)).toBe(published);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
