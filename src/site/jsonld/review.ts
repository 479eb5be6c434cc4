import type { Business } from "@riverbend/shared/schemas/business.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import type { AggregateRating } from "@riverbend/shared/schemas/reviews-document.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { aggregateRatingNode, businessNodeId, reviewNode } from "./plumber.ts";

/** schema.org `Review` of a permalink page: the review, its reply, and the business it is about. */
export function reviewJsonLd(review: Review, business: Business, aggregate: AggregateRating, urls: SiteUrls) {
  const businessId = businessNodeId(urls);
  // The reply keeps its place after the business it answers for.
  const { comment, ...node } = reviewNode(review, urls, businessId);
  return {
    "@context": "https://schema.org",
    ...node,
    itemReviewed: {
      "@type": "Plumber",
      "@id": businessId,
      name: business.name,
      telephone: business.telephone,
      url: business.url,
      ...aggregateRatingNode(aggregate),
    },
    ...(comment ? { comment } : {}),
  };
}
