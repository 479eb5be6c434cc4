import { escapeHtml as h } from "../html.ts";
import type { SiteUrls } from "../urls.ts";

export interface ShellOptions {
  title: string;
  description?: string | undefined;
  canonical: string;
  businessName: string;
  urls: SiteUrls;
}

/** The HTML around every page's content, split in two so Astro can put its slot in between. */
export function pageShell(options: ShellOptions): { start: string; end: string } {
  const { title, description, canonical, businessName, urls } = options;
  const start =
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${h(title)}</title>` +
    (description ? `<meta name="description" content="${h(description)}">` : "") +
    `<link rel="canonical" href="${h(canonical)}">` +
    `<link rel="stylesheet" href="/site.css">` +
    `<link rel="alternate" type="application/atom+xml" title="Reviews (Atom)" href="${h(urls.atomFeed)}">` +
    `<link rel="alternate" type="application/feed+json" title="Reviews (JSON Feed)" href="${h(urls.jsonFeed)}">` +
    `</head><body><header><p><a href="/">${h(businessName)}</a> · <a href="/reviews/">All reviews</a></p></header><main>`;
  const end =
    `</main><footer class="meta"><p>Documents: <a href="/reviews.json">reviews.json</a> · ` +
    `<a href="/insights.json">insights.json</a> · <a href="/api/feed.json">JSON Feed</a> · ` +
    `<a href="/feed.xml">Atom feed</a> · <a href="/openapi.json">OpenAPI</a></p></footer></body></html>`;
  return { start, end };
}
