import type { Business } from "../../schemas/business.ts";
import type { InsightsDocument } from "../../schemas/insights.ts";
import type { Review } from "../../schemas/review.ts";
import type { AggregateRating } from "../../schemas/reviews-document.ts";
import type { SiteUrls } from "../../web/urls.ts";
import { ratingDistributionChart } from "../charts/rating-distribution.ts";
import { starRatingSvg } from "../charts/star-rating.ts";
import { escapeHtml as h } from "../html.ts";
import { jsonLdScript, plumberJsonLd } from "../jsonld/plumber.ts";
import { reviewArticleHtml } from "../render/review-article.ts";
import { businessHeaderHtml } from "./business.ts";
import {
  aspectsSectionHtml,
  faqSectionHtml,
  summarySectionHtml,
  techniciansSectionHtml,
  topicsSectionHtml,
} from "./insights.ts";

/** Reviews the home page shows in full; the rest are one click away in the review browser. */
export const NEWEST_REVIEWS = 6;

export interface HomePageInput {
  business: Business;
  /** Newest first, as in the dataset. */
  reviews: readonly Review[];
  aggregate: AggregateRating;
  /** Absent until the build provides the insights document: the page then leaves its sections out. */
  insights?: InsightsDocument | undefined;
  urls: SiteUrls;
}

export interface HomePage {
  title: string;
  description: string;
  /** Extra <head> markup: the JSON-LD of the business and of the reviews shown. */
  head: string;
  /** The content of <main>. */
  main: string;
  /** The reviews shown in full, in page order: exactly those the JSON-LD names. */
  shown: readonly Review[];
}

const count = new Intl.NumberFormat("en-US");

function ratingLine(aggregate: AggregateRating): string {
  if (aggregate.review_count === 0) return `<p class="rating-line">No reviews yet.</p>`;
  return (
    `<p class="rating-line">${starRatingSvg(aggregate.rating_value, "hero-stars", 22)}` +
    `<strong>${aggregate.rating_value.toFixed(2)}</strong> out of 5 · ` +
    `<a href="/reviews/">${count.format(aggregate.review_count)} verified reviews</a></p>`
  );
}

function ratingsSection(aggregate: AggregateRating): string {
  return (
    `<section class="card" aria-labelledby="ratings-heading"><h2 id="ratings-heading">Ratings</h2>` +
    `<div class="score"><span class="score-value">${aggregate.rating_value.toFixed(2)}</span>` +
    `<span class="score-detail">${starRatingSvg(aggregate.rating_value, "score-stars", 18)}` +
    `<span>${count.format(aggregate.review_count)} verified reviews</span></span></div>` +
    ratingDistributionChart(aggregate.distribution) +
    `<p class="meta">Every review is tied to a real job: a job record, an invoice or a post-job invitation. ` +
    `<a href="/reviews/rating/1/">Read the 1-star reviews too</a>.</p></section>`
  );
}

/** The whole home page content, from the data and (when available) the insights document. */
export function homePage(input: HomePageInput): HomePage {
  const { business, reviews, aggregate, insights, urls } = input;
  const shown = reviews.slice(0, NEWEST_REVIEWS);
  const newest = shown.map((review) => reviewArticleHtml(review, business.name, "h3")).join("");
  const overview = insights
    ? `<div class="grid two">${ratingsSection(aggregate)}${summarySectionHtml(insights)}</div>` +
      aspectsSectionHtml(insights) +
      techniciansSectionHtml(insights, business) +
      topicsSectionHtml(insights) +
      faqSectionHtml(insights)
    : `<div class="grid two">${ratingsSection(aggregate)}</div>`;
  const main =
    businessHeaderHtml(business, ratingLine(aggregate)) +
    overview +
    `<section class="newest" aria-labelledby="newest-heading"><h2 id="newest-heading">Newest reviews</h2>` +
    `${newest}<p class="more"><a class="button secondary" href="/reviews/">Browse all ${count.format(reviews.length)} reviews</a></p></section>` +
    developersSection(urls);
  return {
    title: `${business.name}: verified customer reviews`,
    description:
      aggregate.review_count > 0
        ? `Rated ${aggregate.rating_value.toFixed(2)} out of 5 in ${count.format(aggregate.review_count)} verified reviews. ${business.description}`
        : business.description,
    head: jsonLdScript(plumberJsonLd({ business, aggregate, reviews: shown, urls })),
    main,
    shown,
  };
}

function developersSection(urls: SiteUrls): string {
  const path = (url: string) => (url.startsWith(urls.base) ? url.slice(urls.base.length) || "/" : url);
  const links: [string, string, string][] = [
    [urls.apiDocs, "API documentation", "every endpoint with an example"],
    [urls.reviewsDocument, "reviews.json", "the whole dataset"],
    [urls.insightsDocument, "insights.json", "the figures on this page, with their evidence"],
    [urls.jsonFeed, "JSON Feed", "the 50 newest reviews"],
    [urls.atomFeed, "Atom feed", "the same reviews"],
    [urls.openapi, "OpenAPI", "machine-readable description of the API"],
    [urls.llmsTxt, "llms.txt", "a guide for AI agents"],
    [urls.serverCard, "MCP server card", `the tools of the MCP endpoint at ${path(urls.mcp)}`],
  ];
  return (
    `<section class="developers" aria-labelledby="developers-heading"><h2 id="developers-heading">For developers and AI agents</h2>` +
    `<ul class="link-grid">${links
      .map(
        ([url, name, what]) => `<li><a href="${h(path(url))}">${h(name)}</a> <span class="meta">${h(what)}</span></li>`,
      )
      .join("")}</ul></section>`
  );
}
