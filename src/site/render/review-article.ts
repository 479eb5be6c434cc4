import type { Review } from "../../schemas/review.ts";
import { escapeHtml as h, paragraphs } from "../html.ts";

export function stars(rating: number): string {
  return "★".repeat(rating) + "☆".repeat(5 - rating);
}

export function reviewHeadline(review: Review): string {
  return review.title ?? `Review by ${review.author.name}`;
}

const paras = (text: string) =>
  paragraphs(text)
    .map((p) => `<p>${h(p)}</p>`)
    .join("");

/**
 * One review as an HTML article. Astro pages and the permalink pages written by the build share this
 * markup, because rendering 100k permalink pages through Astro's router costs about 1 ms each.
 */
export function reviewArticleHtml(review: Review, businessName: string, heading: "h1" | "h2" | "h3" = "h3"): string {
  const meta = [
    `${h(review.author.name)}${review.author.locality ? `, ${h(review.author.locality)}` : ""}`,
    `<time datetime="${review.date}">${review.date}</time>`,
    "verified",
    ...(review.technicians.length > 0 ? [h(review.technicians.join(", "))] : []),
  ].join(" · ");
  const reply = review.response
    ? `<blockquote><p class="meta">Response from ${h(businessName)}, <time datetime="${review.response.date}">${review.response.date}</time></p>${paras(review.response.text)}</blockquote>`
    : "";
  return (
    `<article class="review" id="review-${h(review.id)}">` +
    `<${heading}><span class="stars" aria-label="${review.rating} out of 5 stars">${stars(review.rating)}</span> ` +
    `<a href="/reviews/${encodeURIComponent(review.id)}/">${h(reviewHeadline(review))}</a></${heading}>` +
    `<p class="meta">${meta}</p>${review.text ? paras(review.text) : ""}${reply}</article>`
  );
}
