/**
 * The built home page of the sample data (the shared test build): the insights are wired in, the
 * JSON-LD parses and names only reviews the page shows, and the head carries the shell's links.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { type InsightsDocument, InsightsDocumentSchema } from "../src/schemas/insights.ts";
import { TEST_SITE_URL } from "./support/global-setup.ts";

const dist = inject("sampleDist");
const html = readFileSync(path.join(dist, "index.html"), "utf8");
const insights: InsightsDocument = InsightsDocumentSchema.parse(
  JSON.parse(readFileSync(path.join(dist, "insights.json"), "utf8")),
);
const head = html.slice(0, html.indexOf("</head>"));

describe("the built home page", () => {
  it("shows the published insights: every aspect, the FAQ and the summary", () => {
    for (const aspect of insights.aspects) expect(html).toContain(`<details class="aspect" id="aspect-${aspect.id}">`);
    for (const entry of insights.faq) expect(html).toContain(`id="faq-${entry.id}"`);
    if (insights.summary.as_of) expect(html).toContain(`as of <time datetime="${insights.summary.as_of}">`);
    expect(html).toContain(`id="aspect-chart"`);
    expect(html).toContain(`id="rating-distribution"`);
  });

  it("has JSON-LD that parses, describes a Plumber and names only reviews shown on the page", () => {
    const scripts = [...head.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)];
    expect(scripts).toHaveLength(1);
    const data = JSON.parse(scripts[0]?.[1] as string);
    expect(data["@type"]).toBe("Plumber");
    expect(data.review.length).toBeGreaterThan(0);
    for (const review of data.review) {
      const id = review["@id"].slice(`${TEST_SITE_URL}/reviews/`.length, -1);
      expect(html).toContain(`<article class="review" id="review-${id}">`);
      expect(html).toContain(`<a href="/reviews/${id}/">`);
    }
  });

  it("has the canonical URL, Open Graph tags and the feed links", () => {
    expect(head).toContain(`<link rel="canonical" href="${TEST_SITE_URL}/">`);
    for (const property of ["og:title", "og:description", "og:url", "og:type", "og:site_name"]) {
      expect(head).toContain(`<meta property="${property}" content="`);
    }
    expect(head).toContain(`<link rel="alternate" type="application/atom+xml"`);
    expect(head).toContain(`<link rel="alternate" type="application/feed+json"`);
  });
});
