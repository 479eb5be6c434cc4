/**
 * The badge and the widget as another website uses them: a page served on another loopback origin
 * embeds /badge.svg and frames /embed/ with the README's snippet, in Debian's Chromium.
 */
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../support/http.ts";
import { base, browser, open, useSite } from "./support-site.ts";

useSite();

let host: { base: string; close: () => Promise<void> };

/** The business's own site: the README's badge and widget snippets, with this test's service URL. */
const hostPage = (
  site: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our plumbing company</title></head>
<body><h1>Our plumbing company</h1>
<a href="${site}/"><img id="badge" src="${site}/badge.svg" width="180" alt="Our rating and verified reviews"></a>
<a href="${site}/"><img id="badge-dark" src="${site}/badge-dark.svg" width="120" alt="Our rating and verified reviews"></a>
<iframe id="reviews-widget" src="${site}/embed/" title="Customer reviews" width="360" height="150" style="border:0" loading="eager"></iframe>
<script>
addEventListener("message", (event) => {
  if (event.origin !== "${site}" || !event.data || event.data.type !== "reviews-widget:height") return;
  document.getElementById("reviews-widget").height = String(event.data.height);
});
</script>
<iframe id="framed-home" src="${site}/" title="Not allowed" width="300" height="200"></iframe>
</body></html>`;

beforeAll(async () => {
  host = await listen(
    createServer((req, res) => {
      if (req.url !== "/") return void res.writeHead(404).end();
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(hostPage(base));
    }),
  );
});
afterAll(() => host?.close());

describe("the badge and the widget on another site", () => {
  it("shows the badge, resizes the framed widget by postMessage, sets no cookie and calls no third party", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const hosts = new Set<string>();
    context.on("request", (request) => hosts.add(new URL(request.url()).origin));
    try {
      const page = await context.newPage();
      await page.goto(`${host.base}/`, { waitUntil: "load" });
      for (const id of ["#badge", "#badge-dark"]) {
        await expect
          .poll(() => page.locator(id).evaluate((img: HTMLImageElement) => img.naturalWidth))
          .toBeGreaterThan(0);
      }
      // The widget tells the page its height; the page sizes the iframe to it.
      await expect.poll(() => page.locator("#reviews-widget").getAttribute("height")).not.toBe("150");
      const frame = page.frameLocator("#reviews-widget");
      expect(await frame.locator(".reviews li").count()).toBe(3);
      const height = Number(await page.locator("#reviews-widget").getAttribute("height"));
      const content = await frame.locator("html").evaluate((html) => Math.ceil(html.getBoundingClientRect().height));
      expect(Math.abs(height - content)).toBeLessThanOrEqual(1);
      for (const href of await frame.locator(".reviews a").evaluateAll((as) => as.map((a) => a.getAttribute("href")))) {
        expect(href).toMatch(/^https:\/\/reviews\.test\/reviews\/[^/]+\/$/);
      }
      // Every link opens this site in a new tab, never inside the other site's frame.
      const links = await frame.locator("a").count();
      expect(await frame.locator("a[target=_blank][rel~=noopener]").count()).toBe(links);
      // Every other page refuses to be framed: Chromium replaces the home page's frame by an error page.
      await page.waitForLoadState("networkidle");
      const frames = page.frames().map((f) => f.url());
      expect(frames).toContain(`${base}/embed/`);
      expect(frames).not.toContain(`${base}/`);

      expect(await context.cookies()).toEqual([]);
      expect([...hosts].sort()).toEqual([base, host.base].sort());
    } finally {
      await context.close();
    }
  });

  it("sends the widget with a CSP that allows any site to frame it and nothing else, under 20 KB", async () => {
    const response = await fetch(`${base}/embed/`);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors *");
    expect(csp).toContain("default-src 'none'");
    expect(response.headers.get("set-cookie")).toBeNull();
    const html = await response.text();
    const assets = [...html.matchAll(/(?:href|src)="(\/[^"]+\.(?:css|js))"/g)].map((m) => m[1] as string);
    expect(assets.sort()).toEqual(["/embed.css", "/embed.js"]);
    let bytes = Buffer.byteLength(html);
    for (const asset of assets) bytes += (await (await fetch(`${base}${asset}`)).arrayBuffer()).byteLength;
    console.log(`widget: ${bytes} bytes of HTML, CSS and JS`);
    expect(bytes).toBeLessThan(20 * 1024);
    const home = await fetch(`${base}/`);
    expect(home.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
  });

  it("draws the badge legibly from 120 to 240 px wide, light and dark", async () => {
    for (const [file, width] of [
      ["/badge.svg", 120],
      ["/badge-dark.svg", 240],
    ] as const) {
      const response = await fetch(`${base}${file}`);
      expect(response.headers.get("content-type")).toBe("image/svg+xml");
      const svg = await response.text();
      expect(svg).toMatch(
        /aria-label="Riverbend Plumbing &amp; Drain: rated \d\.\d\d out of 5 in 272 verified reviews"/,
      );
      const { page } = await open("/embed/");
      await page.setContent(`<img id="b" src="${base}${file}" width="${width}" alt="">`);
      const size = await page.locator("#b").evaluate((img: HTMLImageElement) => [img.width, img.height]);
      expect(size).toEqual([width, Math.round((width * 64) / 240)]);
      await page.close();
    }
  });
});
