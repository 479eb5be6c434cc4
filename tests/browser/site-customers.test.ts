/**
 * The customer site in Debian's Chromium against the real sidecar (support-site.ts): phone and
 * desktop layouts with the first review's position measured, the review browser with and without
 * JavaScript, combined filters and sorting through the search API, and the new pages under axe.
 */
import { describe, expect, it } from "vitest";
import { base, browser, open, seriousViolations, useSite } from "./support-site.ts";

useSite();

interface ApiReview {
  id: string;
}

describe("the home page for customers", () => {
  for (const [name, width, height] of [
    ["phone", 390, 844],
    ["desktop", 1280, 900],
  ] as const) {
    it(`shows the first review's text within the first two screens on a ${name} (${width} px)`, async () => {
      const sized = await browser.newContext({ baseURL: base, viewport: { width, height }, reducedMotion: "reduce" });
      try {
        const { page, problems } = await open("/", sized);
        const firstText = page.locator(".newest article.review").first().locator("p:not(.meta)").first();
        const top = await firstText.evaluate((p) => p.getBoundingClientRect().top + window.scrollY);
        console.log(`first review text at ${Math.round(top)} px on a ${width}×${height} ${name}`);
        expect(top).toBeGreaterThan(0);
        expect(top).toBeLessThan(2 * height);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(problems).toEqual([]);
      } finally {
        await sized.close();
      }
    });
  }

  it("follows the dark colour scheme", async () => {
    const dark = await browser.newContext({ baseURL: base, colorScheme: "dark" });
    try {
      const { page } = await open("/", dark);
      const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
      expect(r + g + b, background).toBeLessThan(150);
    } finally {
      await dark.close();
    }
  });

  it("has no serious or critical axe-core violations on the verification, API and widget pages, light and dark", async () => {
    for (const target of ["/verified/", "/api/", "/embed/"]) {
      const { page } = await open(target);
      expect(await seriousViolations(page), target).toEqual([]);
      await page.emulateMedia({ colorScheme: "dark" });
      expect(await seriousViolations(page), `${target} (dark)`).toEqual([]);
      await page.close();
    }
  });

  it("links each review's verification to its explanation", async () => {
    const { page } = await open("/");
    const link = page.locator(".newest article.review a.verified").first();
    const href = (await link.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/verified\/#(job-record|invoice|invitation)$/);
    await link.click();
    await page.waitForURL(`**${href}`);
    expect(
      await page
        .locator(href.slice(href.indexOf("#")))
        .locator("h2")
        .count(),
    ).toBe(1);
    await page.close();
  });
});

describe("the review browser", () => {
  it("works without JavaScript: the static 1-star listing with its heading, reviews and filter links", async () => {
    const noJs = await browser.newContext({ baseURL: base, javaScriptEnabled: false });
    try {
      const { page } = await open("/reviews/rating/1/", noJs);
      expect(await page.locator("h1").textContent()).toContain("1-star reviews");
      const stars = await page
        .locator("#review-list article.review .stars")
        .evaluateAll((s) => s.map((e) => e.getAttribute("aria-label")));
      expect(stars.length).toBeGreaterThan(0);
      for (const label of stars) expect(label).toBe("1 out of 5 stars");
      expect(await page.locator("#review-search").isVisible()).toBe(false);
      await page.locator('#review-filters a[data-filter-kind="rating"][data-filter-value="5"]').click();
      await page.waitForURL("**/reviews/rating/5/");
      expect(await page.locator("#review-pager a[rel=next]").getAttribute("href")).toBe("/reviews/rating/5/page/2/");
    } finally {
      await noJs.close();
    }
  });

  it("combines rating, technician and sorting through the search API, and leaves no stale heading or pager", async () => {
    const { page, problems } = await open("/reviews/");
    await page.locator('#review-browser[data-enhanced="true"]').waitFor();
    const technician = await page.locator("#review-filter-technician option").nth(1).getAttribute("value");
    await page.selectOption("#review-filter-rating", "5");
    await page.selectOption("#review-filter-technician", technician as string);
    await page.selectOption("#review-filter-sort", "oldest");
    await expect.poll(() => page.locator("#review-browser").getAttribute("data-state")).toBe("results");
    const api = (await (
      await fetch(`${base}/api/reviews/search?limit=50&rating=5&mentions_technician=${technician}&sort=oldest`)
    ).json()) as { total: number; reviews: ApiReview[] };
    expect(api.total).toBeGreaterThan(1);
    const shown = await page
      .locator("#review-list article.review")
      .evaluateAll((articles) => articles.map((a) => a.id.slice("review-".length)));
    expect(shown).toEqual(api.reviews.map((r) => r.id));
    expect(await page.locator("#review-status").textContent()).toContain(`${api.total} reviews match`);
    expect(await page.locator("#review-status").textContent()).toContain("Oldest first");
    expect(await page.locator("#review-pager").isVisible()).toBe(false);
    expect(await page.locator("#review-summary").isVisible()).toBe(false);
    expect(await page.locator("h1").textContent()).toMatch(/^Reviews: 5 stars, /);
    // Dates read as words, with the ISO date for machines.
    const time = page.locator("#review-list time").first();
    expect(await time.textContent()).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(await time.getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // No match: no pager, no "Older reviews" to an unfiltered page 2.
    await page.fill("#review-filter-query", "zzzz-no-such-words");
    await expect.poll(() => page.locator("#review-status").textContent()).toContain("0 reviews match");
    expect(await page.locator("#review-pager").isVisible()).toBe(false);
    expect(await page.locator("a[rel=next]").isVisible()).toBe(false);

    // Back to the static page: its heading and pager return.
    await page.locator("#review-reset").click();
    expect(await page.locator("h1").textContent()).toContain("All reviews");
    expect(await page.locator("#review-pager").isVisible()).toBe(true);
    // A search superseded by the next one is aborted on purpose.
    expect(problems.filter((p) => !p.endsWith("net::ERR_ABORTED"))).toEqual([]);
    await page.close();
  });

  it("sorts by lowest rating first", async () => {
    const { page } = await open("/reviews/");
    await page.locator('#review-browser[data-enhanced="true"]').waitFor();
    await page.selectOption("#review-filter-sort", "lowest");
    await expect.poll(() => page.locator("#review-browser").getAttribute("data-state")).toBe("results");
    const ratings = await page
      .locator("#review-list article.review .stars")
      .evaluateAll((s) => s.map((e) => Number(e.getAttribute("aria-label")?.[0])));
    expect(ratings.length).toBe(50);
    expect(ratings).toEqual([...ratings].sort((a, b) => a - b));
    expect(ratings[0]).toBe(1);
    await page.close();
  });
});

describe("a permalink page", () => {
  it("carries the business, its rating and phone, related listings and the review's Review JSON-LD", async () => {
    const { page } = await open("/reviews/");
    const href = (await page.locator("#review-list article.review h2 a").first().getAttribute("href")) as string;
    await page.goto(href);
    expect(await page.locator(".business-card a[href^='tel:']").count()).toBe(1);
    expect(await page.locator(".business-card .rating-line").textContent()).toMatch(
      /out of 5 from [\d,]+ verified reviews/,
    );
    expect(await page.locator("nav.related a[href^='/reviews/service/']").count()).toBeGreaterThan(0);
    expect(await page.locator("article.review a.verified").count()).toBe(1);
    const jsonLd = await page.evaluate(() =>
      [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent ?? "")),
    );
    const review = jsonLd.find((node) => node["@type"] === "Review");
    expect(review.itemReviewed).toMatchObject({ "@type": "Plumber", name: "Riverbend Plumbing & Drain" });
    expect(review.itemReviewed.aggregateRating.reviewCount).toBe(272);
    expect(new URL(review.url).pathname).toBe(href);
    // The newest reviews have a card of their own; older ones their rating's card.
    const og = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(new URL(og as string).pathname).toBe(`/og/reviews/${href.split("/")[2]}.png`);
    const image = await fetch(`${base}${new URL(og as string).pathname}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    await page.goto("/reviews/page/6/");
    const oldest = (await page.locator("#review-list article.review h2 a").last().getAttribute("href")) as string;
    await page.goto(oldest);
    const shared = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(shared).toMatch(/\/og\/review-[1-5]\.png$/);
    expect((await fetch(`${base}${new URL(shared as string).pathname}`)).status).toBe(200);
    await page.close();
  });
});
