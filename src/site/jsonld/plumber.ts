import type { Business } from "@riverbend/shared/schemas/business.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import type { AggregateRating } from "@riverbend/shared/schemas/reviews-document.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { reviewHeadline } from "../render/review-article.ts";

const DAYS: Record<string, string> = {
  Mo: "Monday",
  Tu: "Tuesday",
  We: "Wednesday",
  Th: "Thursday",
  Fr: "Friday",
  Sa: "Saturday",
  Su: "Sunday",
};

export interface PlumberJsonLdInput {
  business: Business;
  aggregate: AggregateRating;
  /** The reviews the page shows, in its order: the markup names no review the reader cannot see. */
  reviews: readonly Review[];
  urls: SiteUrls;
}

/** Stable identifier of the business node, so other documents can refer to the same entity. */
export const businessNodeId = (urls: SiteUrls) => `${urls.home}#business`;

/**
 * schema.org `Plumber` for the home page: the business with its address, geo, areas, hours,
 * aggregate rating and the reviews shown on the page (owner replies as `comment`).
 */
export function plumberJsonLd(input: PlumberJsonLdInput): Record<string, unknown> {
  const { business, aggregate, reviews, urls } = input;
  const id = businessNodeId(urls);
  return {
    "@context": "https://schema.org",
    "@type": "Plumber",
    "@id": id,
    name: business.name,
    ...(business.legal_name ? { legalName: business.legal_name } : {}),
    description: business.description,
    url: business.url,
    telephone: business.telephone,
    email: business.email,
    address: {
      "@type": "PostalAddress",
      streetAddress: business.address.street_address,
      addressLocality: business.address.locality,
      addressRegion: business.address.region,
      postalCode: business.address.postal_code,
      addressCountry: business.address.country,
    },
    geo: { "@type": "GeoCoordinates", latitude: business.geo.latitude, longitude: business.geo.longitude },
    areaServed: business.service_areas.map((area) => ({ "@type": "City", name: area.name })),
    openingHoursSpecification: business.opening_hours.map((hours) => ({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: hours.days.map((day) => `https://schema.org/${DAYS[day]}`),
      opens: hours.opens,
      closes: hours.closes,
    })),
    ...(business.price_range ? { priceRange: business.price_range } : {}),
    foundingDate: String(business.founding_year),
    hasCredential: {
      "@type": "EducationalOccupationalCredential",
      credentialCategory: "license",
      name: business.licence_number,
    },
    makesOffer: business.services.map((service) => ({
      "@type": "Offer",
      itemOffered: { "@type": "Service", name: service.name, description: service.description },
    })),
    mainEntityOfPage: urls.home,
    ...aggregateRatingNode(aggregate),
    review: reviews.map((review) => reviewNode(review, urls, id)),
  };
}

/** `aggregateRating` of the business, absent while it has no reviews (schema.org wants a count above 0). */
export function aggregateRatingNode(aggregate: AggregateRating) {
  return aggregate.review_count > 0
    ? {
        aggregateRating: {
          "@type": "AggregateRating",
          ratingValue: aggregate.rating_value,
          reviewCount: aggregate.review_count,
          bestRating: aggregate.best_rating,
          worstRating: aggregate.worst_rating,
        },
      }
    : {};
}

/** One review as a schema.org `Review`, its reply a `Comment` by the business (`businessId`). */
export function reviewNode(review: Review, urls: SiteUrls, businessId: string) {
  return {
    "@type": "Review",
    "@id": urls.permalink(review.id),
    url: urls.permalink(review.id),
    name: reviewHeadline(review),
    datePublished: review.date,
    ...(review.updated ? { dateModified: review.updated } : {}),
    author: { "@type": "Person", name: review.author.name },
    reviewRating: { "@type": "Rating", ratingValue: review.rating, bestRating: 5, worstRating: 1 },
    ...(review.text ? { reviewBody: review.text } : {}),
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

/**
 * A JSON-LD <script> element. `<` is escaped so no review text can close the element early
 * ("</script>") or open a comment; the JSON means the same.
 */
export function jsonLdScript(data: unknown): string {
  const json = JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `<script type="application/ld+json">${json}</script>`;
}
