import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import { reviewArticleHtml } from "../render/review-article.ts";

const cache = new WeakMap<Dataset, readonly Buffer[]>();

/**
 * Every review's article (heading h2) as UTF-8, rendered once per dataset and shared by the five or
 * so listing pages that show it: rendering was most of the browser's cost at 100k reviews (about
 * 10 µs an article, half a million articles), and pages of ready bytes need no 40 KB re-encoding.
 */
export function articleBodies(dataset: Dataset): readonly Buffer[] {
  let bodies = cache.get(dataset);
  if (!bodies) {
    const name = dataset.business.name;
    bodies = dataset.reviews.map((review) => Buffer.from(reviewArticleHtml(review, name, "h2")));
    cache.set(dataset, bodies);
  }
  return bodies;
}
