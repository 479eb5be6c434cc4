/**
 * The site in a real browser: Debian's Chromium driven by playwright-core against the real sidecar
 * serving the shared sample build (on an OS-assigned port). Checks the home page (no console errors,
 * charts, FAQ, JSON-LD that mirrors the page), the page weight, every link of every page and
 * document, the review filters with and without JavaScript, axe-core, and writes screenshots to
 * test-output/screenshots/.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TEST_SITE_URL } from "../support/global-setup.ts";
import { ROOT } from "../support/run-build.ts";
import { type SidecarProcess, startSidecarProcess, stopSidecars } from "../support/sidecar-process.ts";
import { crawl, sitemapPaths } from "./crawl.ts";

/** Home page HTML + CSS + JS, gzip-compressed, must stay under this many bytes. */
const PAGE_WEIGHT_BUDGET = 100 * 1024;
const SCREENSHOTS = path.join(ROOT, "test-output", "screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const sidecars = new Set<SidecarProcess>();
let base = "";
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  const [sidecar, launched] = await Promise.all([
    startSidecarProcess({ env: { DIST_DIR: inject("sampleDist"), SITE_URL: TEST_SITE_URL }, registry: sidecars }),
    chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
      ],
    }),
  ]);
  base = sidecar.base;
  browser = launched;
  context = await browser.newContext({
    baseURL: base,
    viewport: { width: 1280, height: 900 },
    reducedMotion: "reduce",
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await stopSidecars(sidecars);
});

/** Opens a page and records console errors, uncaught exceptions and failed same-origin requests. */
async function open(target: string, on: BrowserContext = context): Promise<{ page: Page; problems: string[] }> {
  const page = await on.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`exception: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on("response", (response) => {
    if (response.url().startsWith(base) && response.status() >= 400) {
      problems.push(`${response.status()}: ${response.url()}`);
    }
  });
  const response = await page.goto(target, { waitUntil: "load" });
  expect(response?.status(), target).toBe(200);
  return { page, problems };
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

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
    expect(await page.locator(".summary time").getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
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
    expect(Object.keys(head.og).sort()).toEqual(["og:description", "og:site_name", "og:title", "og:type", "og:url"]);
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

  it(`weighs less than ${PAGE_WEIGHT_BUDGET / 1024} KB of HTML, CSS and JS, gzip-compressed`, async () => {
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
    expect(gzip).toBeLessThan(PAGE_WEIGHT_BUDGET);
  });
});

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

describe("accessibility and looks", () => {
  it("has no serious or critical axe-core violations on the home, browser and permalink pages", async () => {
    const permalink = (await sitemapPaths({ base, siteOrigins: [TEST_SITE_URL] })).find((p) =>
      /^\/reviews\/\d{4}-/.test(p),
    );
    for (const target of ["/", "/reviews/", permalink as string]) {
      const { page } = await open(target);
      if (target === "/reviews/") await page.locator('#review-browser[data-enhanced="true"]').waitFor();
      // Open every <details>, so the quotes inside are checked too.
      await page.evaluate(() => {
        for (const details of document.querySelectorAll("details")) details.open = true;
      });
      expect(await seriousViolations(page), target).toEqual([]);
      // The site follows the reader's colour scheme: the dark palette must pass as well.
      await page.emulateMedia({ colorScheme: "dark" });
      expect(await seriousViolations(page), `${target} (dark)`).toEqual([]);
      await page.close();
    }
  });

  it("writes screenshots of the home page and the review browser at desktop and mobile widths", async () => {
    for (const [name, width] of [
      ["desktop", 1280],
      ["mobile", 390],
    ] as const) {
      const sized = await browser.newContext({
        baseURL: base,
        viewport: { width, height: 900 },
        reducedMotion: "reduce",
      });
      try {
        for (const [page, target] of [
          ["home", "/"],
          ["reviews", "/reviews/"],
        ] as const) {
          const { page: tab } = await open(target, sized);
          await tab.waitForLoadState("networkidle");
          // Nothing may stick out sideways on a phone.
          expect(
            await tab.evaluate(() => document.documentElement.scrollWidth),
            `${target} at ${width}px`,
          ).toBeLessThanOrEqual(width);
          const file = path.join(SCREENSHOTS, `${page}-${name}.png`);
          await tab.screenshot({ path: file, fullPage: true });
          await tab.close();
        }
      } finally {
        await sized.close();
      }
    }
  });
});
