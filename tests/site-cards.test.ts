/**
 * The pure builders behind the badge, the social cards and the API page's Type column.
 * Builds are checked byte for byte in tests/determinism.test.ts (the cards included).
 */
import { describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { typeText } from "../src/discovery/api-page/render.ts";
import { buildOpenApiDocument } from "../src/openapi/document.ts";
import { aggregateRating } from "../src/reviews-document/aggregate.ts";
import { badgeSvg } from "../src/site/badge/badge-svg.ts";
import { homeCardSvg } from "../src/site/og/card-svg.ts";
import { renderPng } from "../src/site/og/render-png.ts";
import { socialCards } from "../src/site/og/write-cards.ts";
import { siteUrls } from "../src/web/urls.ts";

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
