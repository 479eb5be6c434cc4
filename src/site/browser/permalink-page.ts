import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { AggregateRating } from "@riverbend/shared/schemas/reviews-document.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { aggregateRating } from "../../reviews-document/aggregate.ts";
import { starRatingSvg } from "../charts/star-rating.ts";
import { displayPhone } from "../home/business.ts";
import { escapeHtml as h } from "../html.ts";
import { jsonLdScript } from "../jsonld/plumber.ts";
import { reviewJsonLd } from "../jsonld/review.ts";
import { ogPermalinkImage } from "../og/paths.ts";
import { pageShell } from "../render/page-shell.ts";
import { reviewArticleHtml, reviewHeadline } from "../render/review-article.ts";
import { VERIFIED_PAGE } from "../verification/methods.ts";
import { listingPath } from "./listings.ts";

const count = new Intl.NumberFormat("en-US");

interface Shared {
  aggregate: AggregateRating;
  business: string;
  technicianIds: Map<string, string>;
  serviceNames: Map<string, string>;
}
const shared = new WeakMap<Dataset, Shared>();

/** What every permalink page of a dataset shows alike, computed once instead of 100k times. */
function sharedOf(dataset: Dataset): Shared {
  let known = shared.get(dataset);
  if (!known) {
    const { business } = dataset;
    const aggregate = aggregateRating(dataset.reviews);
    const phone = displayPhone(business.telephone);
    const card =
      `<aside class="business-card" aria-labelledby="business-card-name"><p class="business-card-name" id="business-card-name"><a href="/">${h(business.name)}</a></p>` +
      (aggregate.review_count === 0
        ? ""
        : `<p class="rating-line">${starRatingSvg(aggregate.rating_value, "business-stars", 18)}<strong>${aggregate.rating_value.toFixed(2)}</strong> out of 5 from ` +
          `<a href="/reviews/">${count.format(aggregate.review_count)} verified reviews</a></p>`) +
      `<p class="cta"><a class="button" href="tel:${h(business.telephone)}">Call ${h(phone)}</a> <a href="${h(business.url)}">Book on our website</a></p></aside>`;
    known = {
      aggregate,
      business: card,
      technicianIds: new Map(business.technicians.map((t) => [t.name, t.id])),
      serviceNames: new Map(business.services.map((s) => [s.id, s.name])),
    };
    shared.set(dataset, known);
  }
  return known;
}

/** The permalink page of one review as UTF-8 chunks, at /reviews/{id}/ (the `url` of its feed items). */
export function permalinkPage(dataset: Dataset, urls: SiteUrls, index: number): Buffer[] {
  const review = dataset.reviews[index];
  if (!review) throw new RangeError(`no review at ${index}`);
  const { business } = dataset;
  const { aggregate, business: card, technicianIds, serviceNames } = sharedOf(dataset);
  const shell = pageShell({
    title: `${reviewHeadline(review)} · ${business.name}`,
    description: `${review.rating}-star verified review of ${business.name} by ${review.author.name}, ${review.date}.`,
    canonical: urls.permalink(review.id),
    businessName: business.name,
    urls,
    ogType: "article",
    ogImage: ogPermalinkImage(review, index),
    head: jsonLdScript(reviewJsonLd(review, business, aggregate, urls)),
  });
  // Links to the listings this review belongs to, never to its place in them: the page then changes
  // with its own review and the business's figures only.
  const related = [
    ...review.services.flatMap((id) =>
      serviceNames.has(id)
        ? [
            `<li><a href="${listingPath({ kind: "service", value: id })}">More reviews of ${h(serviceNames.get(id) ?? id)}</a></li>`,
          ]
        : [],
    ),
    ...review.technicians.flatMap((name) => {
      const id = technicianIds.get(name);
      return id
        ? [`<li><a href="${listingPath({ kind: "technician", value: id })}">More jobs by ${h(name)}</a></li>`]
        : [];
    }),
    `<li><a href="/reviews/">All reviews</a></li>`,
    `<li><a href="${VERIFIED_PAGE}">How reviews are verified</a></li>`,
  ].join("");
  // The review is the page's subject, so its heading is the page's one h1 (h2 in the listings).
  const article = reviewArticleHtml(review, business.name, "h1");
  return [
    Buffer.from(
      `${shell.start}<div class="permalink">${article}${card}<nav class="related" aria-label="Related reviews"><ul>${related}</ul></nav></div>${shell.end}`,
    ),
  ];
}
