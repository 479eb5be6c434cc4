/**
 * The built home page of the sample data (the shared test build): the insights are wired in, the
 * JSON-LD parses and names only reviews the page shows, and the head carries the shell's links.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type InsightsDocument, InsightsDocumentSchema } from "@riverbend/shared/schemas/insights.ts";
import { describe, expect, inject, it } from "vitest";
import { TEST_SITE_URL } from "./support/global-setup.ts";

const dist = inject("sampleDist");
const html = readFileSync(path.join(dist, "index.html"), "utf8");
const insights: InsightsDocument = InsightsDocumentSchema.parse(
  JSON.parse(readFileSync(path.join(dist, "insights.json"), "utf8")),
);
const head = html.slice(0, html.indexOf("</head>"));

const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
const reviewsData = JSON.parse(readFileSync(path.join(dist, "reviews.json"), "utf8")) as {
  reviews: { id: string; date: string; rating: number; response?: unknown; verification: { method: string } }[];
};

describe("the built home page", () => {
  it("starts with the business, its rating, a way to call or book, then the newest reviews before the insights", () => {
    expect([...main.matchAll(/<h1[ >]/g)]).toHaveLength(1);
    expect(main).toContain(`<a class="button" href="tel:+1-916-555-0142">Call (916) 555-0142</a>`);
    expect(main).toContain(
      `<a class="button secondary" href="https://www.riverbendplumbing.example">Book on our website</a>`,
    );
    expect(main).toMatch(/272 reviews<\/a>, every one\s*<a href="\/verified\/">verified<\/a>/);
    const firstReview = main.indexOf(`<article class="review"`);
    expect(firstReview).toBeGreaterThan(0);
    for (const later of ['id="says-heading"', 'id="aspects-heading"', 'id="faq-heading"', 'id="technicians-heading"']) {
      expect(main.indexOf(later), later).toBeGreaterThan(firstReview);
    }
    expect(main).toContain(`<a href="/reviews/rating/1/">The 1-star reviews (`);
    expect(main).toContain("Mon–Fri <span>7 am–6 pm</span>");
  });

  it("shows the six newest reviews with human dates, their verification method and the owner's replies", () => {
    const shown = reviewsData.reviews.slice(0, 6);
    for (const review of shown) {
      const start = main.indexOf(`<article class="review" id="review-${review.id}">`);
      expect(start, review.id).toBeGreaterThan(0);
      const article = main.slice(start, main.indexOf("</article>", start));
      const [year, month, day] = review.date.split("-").map(Number);
      const human = new Date(Date.UTC(year as number, (month as number) - 1, day)).toLocaleDateString("en-US", {
        month: "long",
        day: "numeric",
        year: "numeric",
        timeZone: "UTC",
      });
      expect(article).toContain(`<time datetime="${review.date}">${human}</time>`);
      expect(article).toContain(`href="/verified/#${review.verification.method.replace("_", "-")}">Verified: `);
      if (review.response) expect(article).toContain(`<blockquote class="reply"><p class="meta">Response from`);
    }
    expect(main).not.toMatch(/<time datetime="[^"]+">\d{4}-\d{2}-\d{2}<\/time>/);
  });

  it("names concerns plainly and links each topic to its listing", () => {
    for (const topic of insights.topics) expect(main).toContain(`<a href="/reviews/topic/${topic.id}/">`);
    const criticised = insights.aspects.filter((a) => a.negative > 0);
    if (criticised.length > 0) expect(main).toContain("What some customers criticised");
    for (const aspect of criticised) expect(main).toContain(`<strong>${aspect.label}</strong>: ${aspect.negative} of`);
  });

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
    expect(head).toContain(`<meta property="og:image" content="${TEST_SITE_URL}/og/home.png">`);
    for (const property of ["og:title", "og:description", "og:url", "og:type", "og:site_name"]) {
      expect(head).toContain(`<meta property="${property}" content="`);
    }
    expect(head).toContain(`<link rel="alternate" type="application/atom+xml"`);
    expect(head).toContain(`<link rel="alternate" type="application/feed+json"`);
  });
});
