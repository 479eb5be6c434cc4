import type { Business } from "../../schemas/business.ts";
import type { Review } from "../../schemas/review.ts";
import type { AggregateRating } from "../../schemas/reviews-document.ts";
import type { SiteUrls } from "../../web/urls.ts";
import { reviewHeadline } from "../render/review-article.ts";
import { businessNodeId } from "./plumber.ts";

/** schema.org `Review` of a permalink page: the review, its reply, and the business it is about. */
export function reviewJsonLd(review: Review, business: Business, aggregate: AggregateRating, urls: SiteUrls) {
  const businessId = businessNodeId(urls);
  return {
    "@context": "https://schema.org",
    "@type": "Review",
    "@id": urls.permalink(review.id),
    url: urls.permalink(review.id),
    name: reviewHeadline(review),
    datePublished: review.date,
    ...(review.updated ? { dateModified: review.updated } : {}),
    author: { "@type": "Person", name: review.author.name },
    reviewRating: { "@type": "Rating", ratingValue: review.rating, bestRating: 5, worstRating: 1 },
    ...(review.text ? { reviewBody: review.text } : {}),
    itemReviewed: {
      "@type": "Plumber",
      "@id": businessId,
      name: business.name,
      telephone: business.telephone,
      url: business.url,
      ...(aggregate.review_count > 0
        ? {
            aggregateRating: {
              "@type": "AggregateRating",
              ratingValue: aggregate.rating_value,
              reviewCount: aggregate.review_count,
              bestRating: 5,
              worstRating: 1,
            },
          }
        : {}),
    },
    ...(review.response
      ? {
          comment: {
            "@type": "Comment",
            text: review.response.text,
            dateCreated: review.response.date,
            author: { "@id": businessId },
          },
        }
      : {}),
  };
}
