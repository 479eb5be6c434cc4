import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Dataset } from "../data/dataset.ts";
import { pageShell } from "../site/render/page-shell.ts";
import { reviewArticleHtml, reviewHeadline } from "../site/render/review-article.ts";
import type { SiteUrls } from "../site/urls.ts";

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

/** Writes every permalink page below `outDir`; done outside Astro's router to stay linear and cheap. */
export function writePermalinkPages(outDir: string, dataset: Dataset, urls: SiteUrls): number {
  dataset.reviews.forEach((review, index) => {
    const dir = path.join(outDir, "reviews", review.id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "index.html"), permalinkPageHtml(dataset, urls, index));
  });
  return dataset.reviews.length;
}
