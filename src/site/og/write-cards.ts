import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import { aggregateRating } from "../../reviews-document/aggregate.ts";
import { homeCardSvg, reviewCardSvg } from "./card-svg.ts";
import { OG_HOME, ogReviewImage } from "./paths.ts";
import { renderPng } from "./render-png.ts";

/** Every social card of a build, as site path → PNG bytes. */
export function socialCards(dataset: Dataset): Map<string, Buffer> {
  const name = dataset.business.name;
  const cards = new Map<string, Buffer>([[OG_HOME, renderPng(homeCardSvg(name, aggregateRating(dataset.reviews)))]]);
  for (const rating of [1, 2, 3, 4, 5]) cards.set(ogReviewImage(rating), renderPng(reviewCardSvg(name, rating)));
  return cards;
}
