import type { Review } from "@riverbend/shared/schemas/review.ts";
import { displayDate } from "../home/dates.ts";
import { escapeHtml as h, paragraphs } from "../html.ts";
import { VERIFICATION_METHODS, verificationHref } from "../verification/methods.ts";

export function stars(rating: number): string {
  return "★".repeat(rating) + "☆".repeat(5 - rating);
}

export function reviewHeadline(review: Review): string {
  return review.title ?? `Review by ${review.author.name}`;
}

/** A date for people, with the ISO date for machines: `<time datetime="2026-11-03">November 3, 2026</time>`. */
export const timeHtml = (iso: string) => `<time datetime="${h(iso)}">${displayDate(iso)}</time>`;

const paras = (text: string) =>
  paragraphs(text)
    .map((p) => `<p>${h(p)}</p>`)
    .join("");

/**
 * One review as an HTML article. Astro pages and the pages written by the build share this markup,
 * because rendering 100k permalink pages through Astro's router costs about 1 ms each; the browser's
 * search results (public/review-filter.js) build the same structure.
 */
export function reviewArticleHtml(review: Review, businessName: string, heading: "h1" | "h2" | "h3" = "h3"): string {
  const method = review.verification.method;
  const meta = [
    `${h(review.author.name)}${review.author.locality ? `, ${h(review.author.locality)}` : ""}`,
    timeHtml(review.date),
    `<a class="verified" href="${verificationHref(method)}">Verified: ${VERIFICATION_METHODS[method].label}</a>`,
    ...(review.technicians.length > 0 ? [h(review.technicians.join(", "))] : []),
  ].join(" · ");
  const reply = review.response
    ? `<blockquote class="reply"><p class="meta">Response from ${h(businessName)}, ${timeHtml(review.response.date)}</p>${paras(review.response.text)}</blockquote>`
    : "";
  return (
    `<article class="review" id="review-${h(review.id)}">` +
    `<${heading}><span class="stars" aria-label="${review.rating} out of 5 stars">${stars(review.rating)}</span> ` +
    `<a href="/reviews/${encodeURIComponent(review.id)}/">${h(reviewHeadline(review))}</a></${heading}>` +
    `<p class="meta">${meta}</p>${review.text ? paras(review.text) : ""}${reply}</article>`
  );
}
