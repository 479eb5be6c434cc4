import type { Business } from "../../schemas/business.ts";
import type { AspectInsight, EntityInsight, InsightsDocument, Quote } from "../../schemas/insights.ts";
import { listingPath } from "../browser/listings.ts";
import { aspectChart, mentionsText, positiveOf } from "../charts/aspect-chart.ts";
import { percent } from "../charts/svg.ts";
import { escapeHtml as h } from "../html.ts";
import { stars } from "../render/review-article.ts";
import { displayDate } from "./dates.ts";

const count = new Intl.NumberFormat("en-US");
const reviewsText = (n: number) => `${count.format(n)} ${n === 1 ? "review" : "reviews"}`;

/** The review permalink of a quote, as a same-site path so the page works on any host. */
const quoteHref = (quote: Quote) => `/reviews/${encodeURIComponent(quote.review_id)}/`;

/** One quote with a link to its review: the evidence behind a figure, word for word. */
export function quoteHtml(quote: Quote): string {
  return (
    `<figure class="quote ${quote.polarity}"><blockquote cite="${h(quote.url)}"><p>${h(quote.text)}</p></blockquote>` +
    `<figcaption><a href="${quoteHref(quote)}"><span class="stars" aria-hidden="true">${stars(quote.rating)}</span> ` +
    `${quote.rating}-star review of <time datetime="${quote.date}">${displayDate(quote.date)}</time></a></figcaption></figure>`
  );
}

const POLARITY_TITLES = [
  ["positive", "Praise"],
  ["negative", "Criticism"],
  ["mixed", "Mixed"],
  ["neutral", "Neutral"],
] as const;

function aspectSummary(aspect: AspectInsight): string {
  // The share itself is in the chart next to this list; the counts behind it are here.
  const share = aspect.share_positive === null ? `<span class="figure muted">too few to rate</span>` : "";
  return (
    `<summary><span class="aspect-name">${h(aspect.label)}</span>${share}` +
    `<span class="meta">${positiveOf(aspect)} · ${mentionsText(aspect.mentions)}</span></summary>`
  );
}

function aspectDetails(aspect: AspectInsight, reviewsWithText: number): string {
  const groups = POLARITY_TITLES.map(([polarity, title]) => {
    const quotes = aspect.evidence[polarity];
    if (quotes.length === 0) return "";
    return `<h3 class="group-title">${title}</h3>${quotes.map(quoteHtml).join("")}`;
  }).join("");
  const rate =
    `Mentioned in ${reviewsText(aspect.mentions)} of ${count.format(reviewsWithText)} with text ` +
    `(${percent(aspect.mention_rate)}); ${aspect.positive} positive, ${aspect.negative} negative, ` +
    `${aspect.mixed} mixed, ${aspect.neutral} neutral.`;
  return (
    `<details class="aspect" id="aspect-${aspect.id}">${aspectSummary(aspect)}<div class="details-body">` +
    `<p>${h(aspect.description)} ${rate}</p>${groups || `<p class="meta">No quotes yet.</p>`}</div></details>`
  );
}

/** The aspect chart and, under it, one expandable entry per aspect with its evidence quotes. */
export function aspectsSectionHtml(insights: InsightsDocument): string {
  if (insights.aspects.length === 0) return "";
  const threshold = insights.method.thresholds.min_polar_reviews;
  return (
    `<section class="card" aria-labelledby="aspects-heading"><h2 id="aspects-heading">What customers judge</h2>` +
    `<p class="section-lede">Share of positive judgements among the reviews that judge each aspect one way or the other; ` +
    `open an aspect for the quotes behind it.</p>` +
    `<div class="aspects-layout">${aspectChart(insights.aspects)}` +
    `<div class="aspects">${insights.aspects.map((a) => aspectDetails(a, insights.reviews_with_text)).join("")}</div></div>` +
    (threshold === undefined
      ? ""
      : `<p class="meta">Shares are shown from ${threshold} positive or negative reviews up.</p>`) +
    `</section>`
  );
}

function strongest(entity: EntityInsight, labels: ReadonlyMap<string, string>): string {
  const rated = (entity.aspects ?? []).filter((a) => a.share_positive !== null && a.positive > 0);
  rated.sort((a, b) => (b.wilson_lower ?? 0) - (a.wilson_lower ?? 0) || b.positive - a.positive);
  const best = rated[0];
  return best
    ? `<p class="praised">Most praised for ${h((labels.get(best.id) ?? best.id).toLowerCase())}: ${positiveOf(best)}</p>`
    : "";
}

/** The technicians with their reviewed jobs, average rating and most praised aspect. */
export function techniciansSectionHtml(insights: InsightsDocument, business: Business): string {
  const technicians = insights.entities.technicians.filter((t) => t.review_count > 0);
  if (technicians.length === 0) return "";
  const roles = new Map(business.technicians.map((t) => [t.id, t.role]));
  const labels = new Map(insights.aspects.map((a) => [a.id as string, a.label]));
  const people = technicians
    .map(
      (t) =>
        `<li><h3><a href="${listingPath({ kind: "technician", value: t.id })}">${h(t.name)}</a></h3>` +
        `<p class="role">${h(roles.get(t.id) ?? "")}</p><p class="team-figures">` +
        (t.rating_value === null ? "" : `<strong>${t.rating_value.toFixed(2)}</strong> average · `) +
        `${reviewsText(t.review_count)}</p>${strongest(t, labels)}</li>`,
    )
    .join("");
  return (
    `<section class="card" aria-labelledby="technicians-heading"><h2 id="technicians-heading">The technicians</h2>` +
    `<ul class="team">${people}</ul></section>`
  );
}

/** Topics customers weigh, as chips linking to their review listings, with counts and the sentiment split. */
export function topicsSectionHtml(insights: InsightsDocument): string {
  if (insights.topics.length === 0) return "";
  const chips = insights.topics
    .map(
      (t) =>
        `<li class="chip"><a href="${listingPath({ kind: "topic", value: t.id })}">${h(t.phrase)}</a> <span class="chip-count">${count.format(t.reviews)}` +
        `<span class="visually-hidden"> ${t.reviews === 1 ? "review" : "reviews"}: ${t.positive} positive, ${t.negative} negative</span></span></li>`,
    )
    .join("");
  return (
    `<section class="card" aria-labelledby="topics-heading"><h2 id="topics-heading">What customers weigh</h2>` +
    `<ul class="chips">${chips}</ul></section>`
  );
}

/** The FAQ: every answer says where it comes from and links to the reviews it rests on. */
export function faqSectionHtml(insights: InsightsDocument): string {
  if (insights.faq.length === 0) return "";
  const entries = insights.faq
    .map((entry) => {
      const source = entry.source === "editor" ? "Answered by the business" : "Computed from the reviews";
      const evidence =
        entry.evidence.length === 0
          ? ""
          : ` · based on ${entry.evidence
              .map(
                (q, i) =>
                  `<a href="${quoteHref(q)}">review ${i + 1}<span class="visually-hidden"> (${displayDate(q.date)})</span></a>`,
              )
              .join(", ")}`;
      return (
        `<div class="faq-entry" id="faq-${entry.id}"><h3>${h(entry.question)}</h3><p>${h(entry.answer)}</p>` +
        `<p class="meta">${source}${evidence}</p></div>`
      );
    })
    .join("");
  return (
    `<section class="card" aria-labelledby="faq-heading"><h2 id="faq-heading">Questions customers ask</h2>` +
    `<div class="faq">${entries}</div></section>`
  );
}

/** The editorial summary with its date, who wrote it, and the disclosure of how it was made. */
export function summarySectionHtml(insights: InsightsDocument): string {
  const { summary } = insights;
  if (!summary.text) return "";
  const by = summary.source === "editor" ? "Written by the editor" : "Generated from the figures";
  const asOf = summary.as_of ? ` · as of <time datetime="${summary.as_of}">${displayDate(summary.as_of)}</time>` : "";
  const evidence =
    summary.evidence.length === 0
      ? ""
      : ` · sources: ${summary.evidence.map((q, i) => `<a href="${quoteHref(q)}">${i + 1}<span class="visually-hidden"> (review of ${displayDate(q.date)})</span></a>`).join(", ")}`;
  return (
    `<section class="card summary" aria-labelledby="summary-heading"><h2 id="summary-heading">In short</h2>` +
    `<p class="summary-text">${h(summary.text)}</p><p class="meta">${by}${asOf}${evidence}</p>` +
    (insights.disclosure ? `<p class="disclosure">${h(insights.disclosure)}</p>` : "") +
    `</section>`
  );
}
