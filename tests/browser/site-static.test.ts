/**
 * The sample build served by a plain static file server (a CDN-only deployment, no sidecar): every
 * customer page works, and the review browser stays on its static listings without the search API.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listen } from "../support/http.ts";
import { staticServer } from "./static-server.ts";
import { browser, useSite } from "./support-site.ts";

useSite();

let server: { base: string; close: () => Promise<void> };
beforeAll(async () => {
  server = await listen(staticServer(inject("sampleDist")));
});
afterAll(() => server?.close());

describe("from a plain static server of dist/", () => {
  it("serves the home, browser, permalink, verification, API and widget pages, and the badge and cards", async () => {
    const context = await browser.newContext({ baseURL: server.base });
    try {
      for (const target of ["/", "/reviews/", "/reviews/rating/1/", "/verified/", "/api/", "/embed/"]) {
        const page = await context.newPage();
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        const response = await page.goto(target);
        expect(response?.status(), target).toBe(200);
        expect(errors, target).toEqual([]);
        await page.close();
      }
      for (const file of ["/badge.svg", "/badge-dark.svg", "/og/home.png", "/og/review-5.png"]) {
        expect((await fetch(`${server.base}${file}`)).status, file).toBe(200);
      }
    } finally {
      await context.close();
    }
  });

  it("keeps the static listing, heading and pager when the search API is not there", async () => {
    const context = await browser.newContext({ baseURL: server.base });
    try {
      const page = await context.newPage();
      const probe = page.waitForResponse((r) => r.url().includes("/api/reviews/search"));
      await page.goto("/reviews/");
      expect((await probe).status()).toBe(404);
      await page.waitForLoadState("networkidle");
      expect(await page.locator("#review-browser").getAttribute("data-enhanced")).toBeNull();
      expect(await page.locator("#review-search").isVisible()).toBe(false);
      expect(await page.locator("#review-list article.review").count()).toBe(50);
      expect(await page.locator("#review-pager a[rel=next]").getAttribute("href")).toBe("/reviews/page/2/");
      await page.locator("#review-pager a[rel=next]").click();
      await page.waitForURL("**/reviews/page/2/");
      expect(await page.locator("h1").textContent()).toContain("page 2 of");
    } finally {
      await context.close();
    }
  });
});
