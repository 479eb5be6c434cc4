/**
 * Getting around the site in a real browser (see support-site.ts): every link of every page and
 * document resolves, and the review filters work with and without JavaScript.
 */
import { describe, expect, it } from "vitest";
import { TEST_SITE_URL } from "../support/global-setup.ts";
import { crawl, sitemapPaths } from "./crawl.ts";
import { base, browser, open, useSite } from "./support-site.ts";

useSite();

describe("links", () => {
  it("every link of every page and document resolves", async () => {
    const site = { base, siteOrigins: [TEST_SITE_URL] };
    const fromSitemap = await sitemapPaths(site);
    expect(fromSitemap).toContain("/");
    expect(fromSitemap.length).toBeGreaterThan(272);
    const result = await crawl({
      ...site,
      seeds: [
        "/",
        ...fromSitemap,
        "/robots.txt",
        "/llms.txt",
        "/.well-known/api-catalog",
        "/.well-known/mcp/server-card.json",
        "/openapi.json",
        "/reviews.json",
        "/insights.json",
        "/api/feed.json",
        "/feed.xml",
      ],
      // Not pages: POST endpoints, and the API's own URLs that the documents name with parameters.
      skip: ["/mcp", "/api/websub/hub"],
    });
    const bad = [...result.fetched]
      .filter(([, r]) => r.status !== 200)
      .map(([url, r]) => `${r.status} ${url} (linked from ${r.from})`);
    expect(bad).toEqual([]);
    expect(result.brokenFragments).toEqual([]);
    expect(result.fetched.size).toBeGreaterThan(fromSitemap.length);
    console.log(`link check: ${result.fetched.size} URLs fetched once each, ${fromSitemap.length} from the sitemap`);

    // The browser loads a sample of pages of each kind without any failed request or script error.
    const sample = [
      "/",
      "/reviews/",
      "/reviews/page/2/",
      "/reviews/rating/1/",
      fromSitemap.find((p) => /^\/reviews\/\d{4}-/.test(p)),
    ];
    for (const target of sample) {
      if (!target) continue;
      const { page, problems } = await open(target);
      await page.waitForLoadState("networkidle");
      expect(problems, target).toEqual([]);
      await page.close();
    }
  });
});

describe("the review filters", () => {
  it("work without JavaScript: a filter link leads to a page of matching reviews only", async () => {
    const noScript = await browser.newContext({ baseURL: base, javaScriptEnabled: false });
    try {
      const { page } = await open("/reviews/", noScript);
      expect(await page.locator("#review-search-form").count()).toBe(0);
      await page.locator('#review-filters a[data-filter-kind="rating"][data-filter-value="1"]').click();
      await page.waitForURL("**/reviews/rating/1/");
      const ratings = await page
        .locator("#review-list article.review .stars")
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("aria-label")));
      expect(ratings.length).toBeGreaterThan(0);
      expect(new Set(ratings)).toEqual(new Set(["1 out of 5 stars"]));

      await page.locator('#review-filters a[data-filter-kind="technician"][data-filter-value="marcus-bell"]').click();
      await page.waitForURL("**/reviews/technician/marcus-bell/");
      const metas = await page.locator("#review-list article.review > p.meta").allTextContents();
      expect(metas.length).toBeGreaterThan(0);
      for (const meta of metas) expect(meta).toContain("Marcus B.");
      await page.close();
    } finally {
      await noScript.close();
    }
  });

  it("work with JavaScript: the enhanced form updates the results from the search API", async () => {
    const { page, problems } = await open("/reviews/");
    await page.locator('#review-browser[data-enhanced="true"]').waitFor();
    const answered = page.waitForResponse(
      (r) => r.url().includes("/api/reviews/search") && new URL(r.url()).searchParams.get("rating") === "1",
    );
    await page.locator("#review-filter-rating").selectOption("1");
    expect((await answered).status()).toBe(200);
    await page.locator('#review-list[data-source="search"]').waitFor();
    const ratings = await page
      .locator("#review-list article.review .stars")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("aria-label")));
    expect(ratings.length).toBeGreaterThan(0);
    expect(new Set(ratings)).toEqual(new Set(["1 out of 5 stars"]));
    // The same count as the static 1-star listing's link says.
    const staticCount = await page
      .locator('#review-filters a[data-filter-kind="rating"][data-filter-value="1"] .count')
      .textContent();
    expect(await page.locator("#review-status").textContent()).toContain(
      `${staticCount?.replace(/[()]/g, "")} reviews match`,
    );
    expect(problems).toEqual([]);
    await page.close();
  });
});
