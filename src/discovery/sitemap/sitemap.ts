import { escapeHtml } from "../../site/html.ts";

/** The sitemap protocol's limit per file (sitemaps.org); the 50 MB limit is far off at ~150 bytes a URL. */
export const MAX_URLS_PER_SITEMAP = 50_000;

export interface SitemapPage {
  /** URL path of the page, e.g. `/reviews/2025-03-02-maria-g/`. */
  path: string;
  /** Date of the page's latest change in the data (YYYY-MM-DD), when known. */
  lastmod?: string | undefined;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

function urlset(base: string, pages: readonly SitemapPage[]): string {
  const urls = pages.map(({ path, lastmod }) => {
    const date = lastmod ? `<lastmod>${lastmod}</lastmod>` : "";
    return `<url><loc>${escapeHtml(base + path)}</loc>${date}</url>`;
  });
  return `${HEAD}<urlset ${NS}>\n${urls.join("\n")}\n</urlset>\n`;
}

function latest(pages: readonly SitemapPage[]): string | undefined {
  let max: string | undefined;
  for (const { lastmod } of pages) if (lastmod && (!max || lastmod > max)) max = lastmod;
  return max;
}

/**
 * The sitemap files, by URL path: `/sitemap.xml` alone while the pages fit in one file, otherwise
 * `/sitemap.xml` as a sitemap index over `/sitemaps/1.xml`, `/sitemaps/2.xml`, … Pages are sorted by
 * path, so the output depends on the set of pages only, never on the order they were written in.
 */
export function buildSitemaps(base: string, pages: readonly SitemapPage[], perFile = MAX_URLS_PER_SITEMAP) {
  const sorted = [...pages].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const files = new Map<string, string>();
  if (sorted.length <= perFile) {
    files.set("/sitemap.xml", urlset(base, sorted));
    return files;
  }
  const entries: string[] = [];
  for (let start = 0, n = 1; start < sorted.length; start += perFile, n++) {
    const chunk = sorted.slice(start, start + perFile);
    const path = `/sitemaps/${n}.xml`;
    files.set(path, urlset(base, chunk));
    const date = latest(chunk);
    entries.push(`<sitemap><loc>${escapeHtml(base + path)}</loc>${date ? `<lastmod>${date}</lastmod>` : ""}</sitemap>`);
  }
  files.set("/sitemap.xml", `${HEAD}<sitemapindex ${NS}>\n${entries.join("\n")}\n</sitemapindex>\n`);
  return files;
}
