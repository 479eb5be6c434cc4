/**
 * The home page in a real browser (see support-site.ts): no console errors, its charts, FAQ,
 * insights and newest reviews, head links and JSON-LD that mirrors the page, and the page weight.
 */
import { brotliCompressSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { TEST_SITE_URL } from "../support/global-setup.ts";
import { base, open, useSite } from "./support-site.ts";

/** Home page HTML + CSS + JS must stay under this many bytes, as sent uncompressed (and so gzip-compressed too). */
const PAGE_WEIGHT_BUDGET = 100 * 1024;

useSite();

describe("the home page", () => {
  it("renders with no console errors, with its charts, FAQ, insights and newest reviews", async () => {
    const { page, problems } = await open("/");
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
    expect(await page.locator("h1").count()).toBe(1);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Riverbend Plumbing & Drain");
    expect(await page.locator('a[href^="tel:"]').first().getAttribute("href")).toBe("tel:+1-916-555-0142");
    for (const landmark of ["header", "nav", "main", "footer"])
      expect(await page.locator(landmark).count()).toBeGreaterThan(0);

    // Charts: inline SVG images with a name, and a table of the same figures.
    const distribution = page.locator("#rating-distribution svg[role=img]");
    expect(await distribution.getAttribute("aria-labelledby")).toBe("rating-distribution-title");
    expect(await page.locator("#rating-distribution table tbody tr").count()).toBe(5);
    const aspects = page.locator("#aspect-chart svg[role=img]");
    expect(await aspects.count()).toBe(1);
    expect(await page.locator("#aspect-chart table tbody tr").count()).toBeGreaterThan(0);
    expect(await page.locator("details.aspect").count()).toBeGreaterThan(0);

    // An aspect opens to quotes that link to review permalinks.
    const first = page.locator("details.aspect").first();
    await first.locator("summary").click();
    expect(await first.getAttribute("open")).not.toBeNull();
    const quoteLinks = await first
      .locator("figure.quote a")
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).pathname));
    for (const href of quoteLinks) expect(href).toMatch(/^\/reviews\/[a-z0-9-]+\/$/);

    // The FAQ, the summary with its date, the disclosure, technicians and topics.
    expect(await page.locator("#faq-heading").textContent()).toBe("Questions customers ask");
    expect(await page.locator(".faq-entry h3").count()).toBeGreaterThan(0);
    expect(await page.locator(".summary .meta > time").first().getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await page.locator(".disclosure").count()).toBe(1);
    expect(await page.locator("#technicians-heading").count()).toBe(1);
    expect(await page.locator("ul.chips li").count()).toBeGreaterThan(0);

    // Newest reviews with the owner's replies.
    expect(await page.locator(".newest article.review").count()).toBeGreaterThan(0);
    expect(await page.locator(".newest article.review blockquote").count()).toBeGreaterThan(0);
    await page.close();
  });

  it("has head links and JSON-LD whose reviews all appear on the page", async () => {
    const { page } = await open("/");
    const head = await page.evaluate(() => ({
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute("href"),
      atom: document.querySelector('link[rel="alternate"][type="application/atom+xml"]')?.getAttribute("href"),
      json: document.querySelector('link[rel="alternate"][type="application/feed+json"]')?.getAttribute("href"),
      og: Object.fromEntries(
        [...document.querySelectorAll('meta[property^="og:"]')].map((m) => [
          m.getAttribute("property"),
          m.getAttribute("content"),
        ]),
      ),
      jsonLd: [...document.head.querySelectorAll('script[type="application/ld+json"]')].map((s) =>
        JSON.parse(s.textContent ?? ""),
      ),
    }));
    expect(head.canonical).toBe(`${TEST_SITE_URL}/`);
    expect(head.atom).toBe(`${TEST_SITE_URL}/feed.xml`);
    expect(head.json).toBe(`${TEST_SITE_URL}/api/feed.json`);
    expect(Object.keys(head.og).sort()).toEqual([
      "og:description",
      "og:image",
      "og:image:height",
      "og:image:width",
      "og:site_name",
      "og:title",
      "og:type",
      "og:url",
    ]);
    expect(head.og["og:image"]).toBe(`${TEST_SITE_URL}/og/home.png`);
    expect(head.og["og:url"]).toBe(`${TEST_SITE_URL}/`);

    const plumber = head.jsonLd.find((node) => node["@type"] === "Plumber");
    expect(plumber).toMatchObject({ name: "Riverbend Plumbing & Drain", telephone: "+1-916-555-0142" });
    expect(plumber.aggregateRating.reviewCount).toBe(272);
    expect(plumber.review.length).toBeGreaterThan(0);
    for (const review of plumber.review) {
      const id = new URL(review["@id"]).pathname.split("/")[2];
      const article = page.locator(`article#review-${id}`);
      expect(await article.count(), `review ${id} of the JSON-LD is on the page`).toBe(1);
      expect(await article.locator(".stars").first().getAttribute("aria-label")).toBe(
        `${review.reviewRating.ratingValue} out of 5 stars`,
      );
      const text = (await article.textContent())?.replace(/\s+/g, " ") ?? "";
      expect(text).toContain(review.name);
      expect(text).toContain(review.author.name);
      expect(text).toContain((review.reviewBody as string).split(/\n\s*\n/)[0]?.replace(/\s+/g, " "));
    }
    await page.close();
  });

  it(`weighs less than ${PAGE_WEIGHT_BUDGET / 1024} KB of HTML, CSS and JS, uncompressed`, async () => {
    const html = await (await fetch(`${base}/`)).text();
    const assets = [...html.matchAll(/<link [^>]*rel="stylesheet"[^>]*href="([^"]+)"|<script [^>]*src="([^"]+)"/g)]
      .map((m) => new URL((m[1] ?? m[2]) as string, `${base}/`))
      .filter((url) => url.origin === base);
    const bodies = [Buffer.from(html)];
    for (const url of assets) {
      const response = await fetch(url);
      expect(response.status, url.pathname).toBe(200);
      bodies.push(Buffer.from(await response.arrayBuffer()));
    }
    const raw = bodies.reduce((sum, b) => sum + b.length, 0);
    const gzip = bodies.reduce((sum, b) => sum + gzipSync(b).length, 0);
    const brotli = bodies.reduce((sum, b) => sum + brotliCompressSync(b).length, 0);
    console.log(
      `home page weight: ${bodies.length} files, ${raw} bytes raw, ${gzip} bytes gzip, ${brotli} bytes brotli ` +
        `(${assets.map((u) => u.pathname).join(", ")})`,
    );
    expect(raw).toBeLessThan(PAGE_WEIGHT_BUDGET);
    expect(gzip).toBeLessThan(PAGE_WEIGHT_BUDGET);
  });
});
