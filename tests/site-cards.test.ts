/**
 * The pure builders behind the badge, the social cards and the API page's Type column.
 * Builds are checked byte for byte in tests/determinism.test.ts (the cards included).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { afterAll, describe, expect, it } from "vitest";
import { writeReviewCards } from "../src/build/review-cards.ts";
import { loadDataset } from "../src/data/load-dataset.ts";
import { typeText } from "../src/discovery/api-page/render.ts";
import { buildOpenApiDocument } from "../src/openapi/document.ts";
import { aggregateRating } from "../src/reviews-document/aggregate.ts";
import { badgeSvg } from "../src/site/badge/badge-svg.ts";
import { homeCardSvg, permalinkCardSvg, wrapText } from "../src/site/og/card-svg.ts";
import { OWN_CARDS, ogPermalinkImage } from "../src/site/og/paths.ts";
import { renderPng } from "../src/site/og/render-png.ts";
import { socialCards } from "../src/site/og/write-cards.ts";

const dataset = loadDataset("data");
const aggregate = aggregateRating(dataset.reviews);

describe("social cards", () => {
  it("render the same PNG bytes twice, 1200×630, one for the home page and one per star rating", () => {
    const svg = homeCardSvg(dataset.business.name, aggregate);
    const first = renderPng(svg);
    expect(renderPng(svg).equals(first)).toBe(true);
    expect(first.subarray(1, 4).toString()).toBe("PNG");
    expect([first.readUInt32BE(16), first.readUInt32BE(20)]).toEqual([1200, 630]);
    expect([...socialCards(dataset).keys()].sort()).toEqual([
      "/og/home.png",
      "/og/review-1.png",
      "/og/review-2.png",
      "/og/review-3.png",
      "/og/review-4.png",
      "/og/review-5.png",
    ]);
  });
});

describe("the reviews' own social cards", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "cards-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const newest = { ...dataset, reviews: dataset.reviews.slice(0, 3) };
  const filesOf = (dir: string) =>
    readdirSync(path.join(dir, "og/reviews"))
      .sort()
      .map((name) => [name, readFileSync(path.join(dir, "og/reviews", name))] as const);

  it("are the same bytes from two cold caches, and from a warm cache without rendering again", () => {
    const [outA, outB, cacheA, cacheB] = ["out-a", "out-b", "cache-a", "cache-b"].map((d) => path.join(scratch, d));
    const first = writeReviewCards(outA as string, newest, cacheA as string);
    expect([first.rendered, first.reused]).toEqual([3, 0]);
    const second = writeReviewCards(outB as string, newest, cacheB as string);
    expect([second.rendered, second.reused]).toEqual([3, 0]);
    expect(filesOf(outA as string)).toEqual(filesOf(outB as string));
    expect([...first.digests]).toEqual([...second.digests]);
    expect(filesOf(outA as string).map(([name]) => name)).toEqual(newest.reviews.map((r) => `${r.id}.png`).sort());
    // The cache's copy is the renderer's own output, byte for byte.
    const [review] = newest.reviews;
    const png = filesOf(outA as string).find(([name]) => name === `${review?.id}.png`)?.[1];
    expect(png?.equals(renderPng(permalinkCardSvg(dataset.business.name, review as never)))).toBe(true);
    expect([png?.readUInt32BE(16), png?.readUInt32BE(20)]).toEqual([1200, 630]);

    const warm = writeReviewCards(path.join(scratch, "out-c"), newest, cacheA as string);
    expect([warm.rendered, warm.reused]).toEqual([0, 3]);
    expect(filesOf(path.join(scratch, "out-c"))).toEqual(filesOf(outA as string));
  });

  it("render again only the card of a changed review", () => {
    const cache = path.join(scratch, "cache-edit");
    writeReviewCards(path.join(scratch, "out-d"), newest, cache);
    const edited = newest.reviews.map((r, i) => (i === 1 ? { ...r, title: "A new title for this review" } : r));
    const again = writeReviewCards(path.join(scratch, "out-e"), { ...newest, reviews: edited }, cache, 3);
    expect([again.rendered, again.reused]).toEqual([1, 2]);
    // Past its bound the cache keeps only the last build's cards: the edited review's old card goes.
    expect(readdirSync(cache)).toHaveLength(3);
  });

  it("show the review's stars, headline, author, date and verification; older reviews use their rating's card", () => {
    const review = dataset.reviews[0];
    if (!review) throw new Error("no review");
    const svg = permalinkCardSvg(dataset.business.name, { ...review, title: "Great & fast" });
    expect(svg).toContain("Great &amp; fast");
    expect(svg).toContain(review.author.name);
    expect(svg).toContain("Verified: ");
    expect(svg).toMatch(/[A-Z][a-z]+ \d{1,2}, \d{4}/);
    expect(ogPermalinkImage(review, 0)).toBe(`/og/reviews/${review.id}.png`);
    expect(ogPermalinkImage({ id: "x", rating: 2 }, OWN_CARDS)).toBe("/og/review-2.png");
  });

  it("wrap a long headline into at most two lines, marking what is cut", () => {
    expect(wrapText("short one", 40, 2)).toEqual(["short one"]);
    const lines = wrapText("word ".repeat(40), 20, 2);
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.length <= 21)).toBe(true);
    expect(lines[1]?.endsWith("…")).toBe(true);
  });
});

describe("the badge", () => {
  it("names the rating and count for screen readers, fills the stars to the rating, and scales from its viewBox", () => {
    const svg = badgeSvg("A & B", { ...aggregate, rating_value: 4.5, review_count: 1234 }, "dark");
    expect(svg).toContain(`aria-label="A &amp; B: rated 4.50 out of 5 in 1,234 verified reviews"`);
    expect(svg).toContain(`<rect x="12" y="8" width="90" height="20"/>`);
    expect(svg).toContain(`viewBox="0 0 240 64"`);
    expect(svg).not.toMatch(/<svg[^>]* width=/);
    expect(svg).not.toMatch(/href=|<script|@import|url\(http/);
  });
});

describe("the API page's Type column", () => {
  it("has a type for every parameter, references and enums resolved", () => {
    const openapi = buildOpenApiDocument(siteUrls("https://reviews.test"), "Riverbend") as unknown as {
      paths: Record<string, Record<string, { parameters?: { name: string; schema?: object }[] }>>;
      components: { schemas: Record<string, object> };
    };
    const search = openapi.paths["/api/reviews/search"]?.get?.parameters ?? [];
    const types = Object.fromEntries(search.map((p) => [p.name, typeText(p.schema, openapi.components.schemas)]));
    expect(types.rating).toBe("integer, 1 to 5");
    expect(types.since).toBe("string (date, YYYY-MM-DD)");
    expect(types.until).toBe("string (date, YYYY-MM-DD)");
    expect(types.sort).toBe("newest, oldest, highest or lowest");
    for (const [name, type] of Object.entries(types)) expect(type, name).not.toBe("");
  });
});
