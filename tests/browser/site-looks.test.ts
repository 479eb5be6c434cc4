/**
 * Accessibility and looks in a real browser (see support-site.ts): axe-core in the light and dark
 * palettes, nothing wider than a phone, and screenshots written to test-output/screenshots/.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { TEST_SITE_URL } from "../support/global-setup.ts";
import { ROOT } from "../support/run-build.ts";
import { sitemapPaths } from "./crawl.ts";
import { base, browser, open, seriousViolations, useSite } from "./support-site.ts";

const SCREENSHOTS = path.join(ROOT, "test-output", "screenshots");

useSite();

beforeAll(() => {
  mkdirSync(SCREENSHOTS, { recursive: true });
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
