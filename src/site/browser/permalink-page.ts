import type { Dataset } from "../../schemas/dataset.ts";
import type { SiteUrls } from "../../web/urls.ts";
import { pageShell } from "../render/page-shell.ts";
import { reviewArticleHtml, reviewHeadline } from "../render/review-article.ts";

/** The permalink page of one review as UTF-8 chunks, at /reviews/{id}/ (the `url` of its feed items). */
export function permalinkPage(dataset: Dataset, urls: SiteUrls, index: number): Buffer[] {
  const review = dataset.reviews[index];
  if (!review) throw new RangeError(`no review at ${index}`);
  const { business } = dataset;
  const shell = pageShell({
    title: `${reviewHeadline(review)} · ${business.name}`,
    description: `${review.rating}-star verified review of ${business.name} by ${review.author.name}, ${review.date}.`,
    canonical: urls.permalink(review.id),
    businessName: business.name,
    urls,
    ogType: "article",
  });
  // No filter bar or link to the review's browser page: either would change this page whenever any
  // other review is added, and permalink pages should change only with their own review.
  // The review is the page's subject, so its heading is the page's one h1 (h2 in the listings).
  const article = reviewArticleHtml(review, business.name, "h1");
  return [Buffer.from(`${shell.start}${article}<p><a href="/reviews/">All reviews</a></p>${shell.end}`)];
}
