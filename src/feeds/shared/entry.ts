import type { Business } from "@riverbend/shared/schemas/business.ts";
import { type Dataset, reviewLastChanged } from "@riverbend/shared/schemas/dataset.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { rfc3339 } from "@riverbend/shared/web/time.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { escapeHtml, textToHtml } from "../../site/html.ts";
import { stars } from "../../site/render/review-article.ts";
import { VERIFICATION_METHODS } from "../../site/verification/methods.ts";

/** Number of reviews in each feed (the spec's "50 newest"). */
export const FEED_SIZE = 50;

/** What both feed formats say about one review, computed once. */
export interface FeedEntry {
  review: Review;
  id: string;
  url: string;
  title: string;
  summary: string;
  text: string;
  html: string;
  published: string;
  /** Present only when the review or its reply changed after the review date. */
  modified: string | undefined;
  /** Latest of published and modified. */
  updated: string;
  tags: string[];
}

/**
 * Ids must survive a move of the site to another host (RFC 4287 §4.2.6), so they are tag URIs
 * (RFC 4151) minted from the business's own domain and founding year, not permalinks.
 */
function tagPrefix(business: Business): string {
  return `tag:${new URL(business.url).hostname.replace(/^www\./, "")},${business.founding_year}:`;
}

export function entryId(business: Business, reviewId: string): string {
  return `${tagPrefix(business)}review:${reviewId}`;
}

export function feedId(business: Business, feed: "atom" | "json"): string {
  return `${tagPrefix(business)}reviews-feed:${feed}`;
}

function headline(review: Review): string {
  if (review.title) return review.title;
  if (!review.text) return `${review.rating}-star rating`;
  const firstLine = review.text.split(/\n/)[0] ?? review.text;
  // Cut by code points, never inside a surrogate pair (an emoji).
  const points = Array.from(firstLine);
  return points.length <= 70
    ? firstLine
    : `${points
        .slice(0, 70)
        .join("")
        .replace(/\s+\S*$/, "")}…`;
}

function catalogueNames(business: Business, review: Review) {
  const services = review.services.map((id) => business.services.find((s) => s.id === id)?.name ?? id);
  const area = business.service_areas.find((a) => a.id === review.service_area)?.name ?? review.service_area;
  return { services, area };
}

export function buildFeedEntry(dataset: Dataset, urls: SiteUrls, review: Review): FeedEntry {
  const { business } = dataset;
  const tz = business.time_zone;
  const { services, area } = catalogueNames(business, review);
  const facts = [
    `${review.rating} of 5 stars`,
    `verified review (${VERIFICATION_METHODS[review.verification.method].label})`,
    review.technicians.length > 0 ? `technician: ${review.technicians.join(", ")}` : undefined,
    services.length > 0 ? `service: ${services.join(", ")}` : undefined,
    area,
  ].filter((f): f is string => f !== undefined);
  const summary = `${facts.join(" · ")}.`;

  let text = `${stars(review.rating)} ${review.rating}/5 by ${review.author.name}${review.text ? `\n\n${review.text}` : ""}`;
  let html = `<p>${stars(review.rating)} ${review.rating}/5 by ${escapeHtml(review.author.name)}</p>${review.text ? textToHtml(review.text) : ""}`;
  if (review.response) {
    text += `\n\nResponse from ${business.name} (${review.response.date}):\n\n${review.response.text}`;
    html +=
      `<blockquote><p>Response from ${escapeHtml(business.name)} (${review.response.date}):</p>` +
      `${textToHtml(review.response.text)}</blockquote>`;
  }

  const changed = reviewLastChanged(review);
  const published = rfc3339(review.date, tz);
  const modified = changed > review.date ? rfc3339(changed, tz) : undefined;
  return {
    review,
    id: entryId(business, review.id),
    url: urls.permalink(review.id),
    title: `${review.rating}/5 · ${headline(review)}`,
    summary,
    text,
    html,
    published,
    modified,
    updated: modified ?? published,
    tags: [...services, area],
  };
}

/** The newest reviews as feed entries, newest first. */
export function newestEntries(dataset: Dataset, urls: SiteUrls, size = FEED_SIZE): FeedEntry[] {
  return dataset.reviews.slice(0, size).map((review) => buildFeedEntry(dataset, urls, review));
}
