import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Dataset } from "../data/dataset.ts";
import { pageShell } from "../site/render/page-shell.ts";
import { reviewArticleHtml, reviewHeadline } from "../site/render/review-article.ts";
import type { SiteUrls } from "../site/urls.ts";
import type { FileDigest } from "./manifest.ts";
import { pageCount, pageSlice } from "./pagination.ts";

/*
 * The review browser and the permalink pages are written by the build, outside Astro's router:
 * Astro's per-route cost (about 1 ms a page here) made 100k permalink pages take over 100 s. They
 * use the same markup functions as the Astro home page, so the site looks the same throughout.
 */

/** The permalink page of one review, at /reviews/{id}/. */
export function permalinkPageHtml(dataset: Dataset, urls: SiteUrls, index: number): string {
  const review = dataset.reviews[index];
  if (!review) throw new RangeError(`no review at ${index}`);
  const { business } = dataset;
  const shell = pageShell({
    title: `${reviewHeadline(review)} · ${business.name}`,
    description: `${review.rating}-star verified review of ${business.name} by ${review.author.name}, ${review.date}.`,
    canonical: urls.permalink(review.id),
    businessName: business.name,
    urls,
  });
  return `${shell.start}${reviewArticleHtml(review, business.name, "h2")}<p><a href="/reviews/">All reviews</a></p>${shell.end}`;
}

const browserPath = (page: number) => (page <= 1 ? "/reviews/" : `/reviews/page/${page}/`);

/** Page `page` (1-based) of the review browser: PAGE_SIZE reviews, newest first, with prev/next links. */
export function browserPageHtml(dataset: Dataset, urls: SiteUrls, page: number): string {
  const { business, reviews } = dataset;
  const pages = pageCount(reviews.length);
  const shell = pageShell({
    title: `Reviews, page ${page} of ${pages} · ${business.name}`,
    description: `Verified customer reviews of ${business.name}, newest first.`,
    canonical: `${urls.base}${browserPath(page)}`,
    businessName: business.name,
    urls,
  });
  const articles = pageSlice(reviews, page)
    .map((review) => reviewArticleHtml(review, business.name, "h2"))
    .join("");
  const prev = page > 1 ? `<a href="${browserPath(page - 1)}" rel="prev">Newer reviews</a>` : "<span></span>";
  const next = page < pages ? `<a href="${browserPath(page + 1)}" rel="next">Older reviews</a>` : "<span></span>";
  return (
    `${shell.start}<h1>All reviews <small>page ${page} of ${pages}</small></h1>${articles}` +
    `<nav class="pager" aria-label="Pages">${prev}${next}</nav>${shell.end}`
  );
}

/** Writes one page as `<folder>/index.html` and records its digest for the manifest. */
function writePage(outDir: string, folder: string, html: string, digests: Map<string, FileDigest>): void {
  const body = Buffer.from(html);
  mkdirSync(path.join(outDir, folder), { recursive: true });
  const file = `${folder}/index.html`;
  writeFileSync(path.join(outDir, file), body);
  digests.set(file, { sha256: createHash("sha256").update(body).digest("hex"), size: body.length });
}

/**
 * Writes the review browser (/reviews/, /reviews/page/N/) and returns the pages' digests, so the
 * manifest need not read them back.
 */
export function writeBrowserPages(outDir: string, dataset: Dataset, urls: SiteUrls): Map<string, FileDigest> {
  const digests = new Map<string, FileDigest>();
  const pages = pageCount(dataset.reviews.length);
  for (let page = 1; page <= pages; page++) {
    writePage(outDir, browserPath(page).slice(1, -1), browserPageHtml(dataset, urls, page), digests);
  }
  return digests;
}

/**
 * Writes every permalink page and returns their digests. Synchronous writes measured faster here
 * than 16 concurrent async ones: the cost is the file system's.
 */
export function writePermalinkPages(outDir: string, dataset: Dataset, urls: SiteUrls): Map<string, FileDigest> {
  const digests = new Map<string, FileDigest>();
  dataset.reviews.forEach((review, index) => {
    writePage(outDir, `reviews/${review.id}`, permalinkPageHtml(dataset, urls, index), digests);
  });
  return digests;
}
