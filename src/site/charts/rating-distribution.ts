import type { RatingDistribution } from "@riverbend/shared/schemas/reviews-document.ts";
import { escapeHtml as h } from "../html.ts";
import { n, percent, svgImage } from "./svg.ts";

const RATINGS = ["5", "4", "3", "2", "1"] as const;
const count = new Intl.NumberFormat("en-US");

/** One row of the chart and of its table: the star rating, its reviews and their share of all. */
export interface DistributionRow {
  rating: number;
  reviews: number;
  share: number;
}

export function distributionRows(distribution: RatingDistribution): DistributionRow[] {
  const total = RATINGS.reduce((sum, r) => sum + distribution[r], 0);
  return RATINGS.map((r) => ({
    rating: Number(r),
    reviews: distribution[r],
    share: total === 0 ? 0 : distribution[r] / total,
  }));
}

const WIDTH = 320;
const ROW = 26;
const BAR = 14;
const LABEL = 44;
const FIGURES = 84;

/**
 * The rating distribution as a horizontal bar chart (5 stars on top), in inline SVG with a text
 * alternative, followed by a table of the same figures for screen readers and text browsers.
 * Bars are scaled to the largest count, so a small rating stays visible next to a large one.
 */
export function ratingDistributionChart(distribution: RatingDistribution, id = "rating-distribution"): string {
  const rows = distributionRows(distribution);
  const total = rows.reduce((sum, row) => sum + row.reviews, 0);
  const max = Math.max(1, ...rows.map((row) => row.reviews));
  const track = WIDTH - LABEL - FIGURES;
  const body = rows
    .map((row, i) => {
      const y = i * ROW;
      const mid = y + ROW / 2;
      const length = row.reviews === 0 ? 0 : Math.max(2, (row.reviews / max) * track);
      return (
        `<text x="0" y="${n(mid)}" dy="0.35em" class="chart-label">${row.rating} ★</text>` +
        `<rect x="${LABEL}" y="${n(mid - BAR / 2)}" width="${n(track)}" height="${BAR}" rx="3" class="chart-track"/>` +
        (length > 0
          ? `<rect x="${LABEL}" y="${n(mid - BAR / 2)}" width="${n(length)}" height="${BAR}" rx="3" class="chart-bar r${row.rating}"/>`
          : "") +
        `<text x="${WIDTH}" y="${n(mid)}" dy="0.35em" text-anchor="end" class="chart-figure">` +
        `${count.format(row.reviews)} · ${percent(row.share)}</text>`
      );
    })
    .join("");
  const svg = svgImage(
    {
      id,
      width: WIDTH,
      height: rows.length * ROW,
      title: `Rating distribution of ${count.format(total)} reviews`,
      description: rows
        .map((row) => `${row.rating} stars: ${count.format(row.reviews)} (${percent(row.share)})`)
        .join(", "),
      className: "chart rating-chart",
    },
    body,
  );
  const table =
    `<div class="visually-hidden"><table><caption>Reviews by star rating</caption>` +
    `<thead><tr><th scope="col">Rating</th><th scope="col">Reviews</th><th scope="col">Share</th></tr></thead><tbody>` +
    rows
      .map(
        (row) =>
          `<tr><th scope="row">${row.rating} ${row.rating === 1 ? "star" : "stars"}</th>` +
          `<td>${count.format(row.reviews)}</td><td>${percent(row.share)}</td></tr>`,
      )
      .join("") +
    `</tbody></table></div>`;
  return `<figure class="chart-figure-block" id="${h(id)}">${svg}${table}</figure>`;
}
