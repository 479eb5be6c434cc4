/**
 * The site in a real browser, shared by the site-*.test.ts files: Debian's Chromium driven by
 * playwright-core against the real sidecar serving the shared sample build (on an OS-assigned port),
 * and helpers that open a page and run axe-core on it.
 */
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { TEST_SITE_URL } from "../support/global-setup.ts";
import { type SidecarProcess, startSidecarProcess, stopSidecars } from "../support/sidecar-process.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const sidecars = new Set<SidecarProcess>();
// Live bindings: set by useSite() before the file's tests run.
export let base = "";
export let browser: Browser;
export let context: BrowserContext;

/** Starts the sidecar and Chromium for the tests of the calling file, and stops both after them. */
export function useSite(): void {
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
  });

  afterAll(async () => {
    await browser?.close();
    await stopSidecars(sidecars);
  });
}

/** Opens a page and records console errors, uncaught exceptions and failed same-origin requests. */
export async function open(target: string, on: BrowserContext = context): Promise<{ page: Page; problems: string[] }> {
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

export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
