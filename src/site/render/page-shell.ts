import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { escapeHtml as h } from "../html.ts";

export interface ShellOptions {
  title: string;
  description?: string | undefined;
  canonical: string;
  businessName: string;
  urls: SiteUrls;
  /** Trusted markup appended to <head>, e.g. a page's own stylesheet and script tags. */
  head?: string | undefined;
  /** Open Graph type: "website" (default) or "article" for a page about one review. */
  ogType?: "website" | "article" | undefined;
  /** Site path of the page's social card (a PNG the build generates), for og:image. */
  ogImage?: string | undefined;
}

/** The site navigation: label and URL path. The current section is marked with aria-current. */
const NAV = (urls: SiteUrls): [string, string][] => [
  ["Home", "/"],
  ["Reviews", "/reviews/"],
  ["API", pathOf(urls.apiDocs, urls)],
];

function pathOf(url: string, urls: SiteUrls): string {
  return url.startsWith(`${urls.base}/`) ? url.slice(urls.base.length) : url;
}

function navHtml(urls: SiteUrls, current: string): string {
  const items = NAV(urls)
    .map(([label, path]) => {
      const mark =
        current === path
          ? ` aria-current="page"`
          : path !== "/" && current.startsWith(path)
            ? ` aria-current="true"`
            : "";
      return `<li><a href="${h(path)}"${mark}>${h(label)}</a></li>`;
    })
    .join("");
  return `<nav class="site-nav" aria-label="Site"><ul>${items}</ul></nav>`;
}

/**
 * The HTML around every page's content, split in two so Astro can put its slot in between: head
 * links (canonical, feeds, Open Graph), a skip link, the site header and navigation, the footer.
 */
export function pageShell(options: ShellOptions): { start: string; end: string } {
  const { title, description, canonical, businessName, urls, head = "", ogType = "website", ogImage } = options;
  const current = pathOf(canonical, urls);
  const start =
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${h(title)}</title>` +
    (description ? `<meta name="description" content="${h(description)}">` : "") +
    `<link rel="canonical" href="${h(canonical)}">` +
    `<meta property="og:type" content="${ogType}"><meta property="og:site_name" content="${h(businessName)}">` +
    `<meta property="og:title" content="${h(title)}"><meta property="og:url" content="${h(canonical)}">` +
    `<meta property="og:description" content="${h(description ?? title)}">` +
    (ogImage
      ? `<meta property="og:image" content="${h(urls.base + ogImage)}"><meta property="og:image:width" content="1200">` +
        `<meta property="og:image:height" content="630"><meta name="twitter:card" content="summary_large_image">`
      : "") +
    `<link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/site.css">` +
    `<link rel="alternate" type="application/atom+xml" title="Reviews (Atom)" href="${h(urls.atomFeed)}">` +
    `<link rel="alternate" type="application/feed+json" title="Reviews (JSON Feed)" href="${h(urls.jsonFeed)}">` +
    `${head}</head><body><a class="skip-link" href="#main">Skip to content</a>` +
    `<header class="site-header"><div class="wrap"><a class="brand" href="/">${h(businessName)}</a>` +
    `${navHtml(urls, current)}</div></header><main id="main" class="wrap" tabindex="-1">`;
  const end =
    `</main><footer class="site-footer"><div class="wrap"><p>Verified customer reviews of ${h(businessName)}.</p>` +
    `<p>Documents: <a href="/reviews.json">reviews.json</a> · <a href="/insights.json">insights.json</a> · ` +
    `<a href="/api/feed.json">JSON Feed</a> · <a href="/feed.xml">Atom feed</a> · <a href="/openapi.json">OpenAPI</a> · ` +
    `<a href="/llms.txt">llms.txt</a> · <a href="/verified/">How reviews are verified</a> · <a href="/embed/">Badge and widget</a></p></div></footer></body></html>`;
  return { start, end };
}
