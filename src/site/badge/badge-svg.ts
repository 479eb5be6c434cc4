import type { AggregateRating } from "@riverbend/shared/schemas/reviews-document.ts";
import { escapeHtml as h } from "../html.ts";

export type BadgeTheme = "light" | "dark";

/** Site paths of the badge, one per theme; the snippet in the README links it to the home page. */
export const BADGE_PATHS: Record<BadgeTheme, string> = { light: "/badge.svg", dark: "/badge-dark.svg" };

const PALETTE: Record<BadgeTheme, { bg: string; border: string; text: string; muted: string; off: string }> = {
  light: { bg: "#ffffff", border: "#d8dde4", text: "#18202b", muted: "#4a5462", off: "#d4d8de" },
  dark: { bg: "#171e27", border: "#2e3846", text: "#e7ebf0", muted: "#a9b3c0", off: "#3a4556" },
};
const STAR = "l2.6 5.6 6.1.7-4.5 4.2 1.2 6-5.4-3-5.4 3 1.2-6-4.5-4.2 6.1-.7z";
const count = new Intl.NumberFormat("en-US");

/**
 * The rating badge: stars filled to the average, the figure and the number of verified reviews. A
 * 240×64 viewBox with no fixed size, so it scales from 120 to 240 px wide and stays legible (the
 * smallest text is 11 user units, 5.5 px at 120 px). Text uses generic font families only: the SVG
 * loads nothing.
 */
export function badgeSvg(business: string, aggregate: AggregateRating, theme: BadgeTheme): string {
  const c = PALETTE[theme];
  const rating = Math.max(0, Math.min(5, aggregate.rating_value));
  const stars = [0, 1, 2, 3, 4].map((i) => `M${10 + i * 20} 1.3${STAR}`).join("");
  const label =
    aggregate.review_count === 0
      ? `${business}: no reviews yet`
      : `${business}: rated ${aggregate.rating_value.toFixed(2)} out of 5 in ${count.format(aggregate.review_count)} verified reviews`;
  const figure = aggregate.review_count === 0 ? "No reviews yet" : aggregate.rating_value.toFixed(1);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 64" role="img" aria-label="${h(label)}">` +
    `<title>${h(label)}</title>` +
    `<rect x="0.5" y="0.5" width="239" height="63" rx="8" fill="${c.bg}" stroke="${c.border}"/>` +
    `<clipPath id="filled"><rect x="12" y="8" width="${(rating / 5) * 100}" height="20"/></clipPath>` +
    `<g transform="translate(12 8)"><path d="${stars}" fill="${c.off}"/></g>` +
    `<g transform="translate(12 8)" clip-path="url(#filled)"><path d="${stars}" fill="#f59e0b"/></g>` +
    `<text x="122" y="24" font-family="system-ui, sans-serif" font-size="18" font-weight="700" fill="${c.text}">${h(figure)}</text>` +
    `<text x="154" y="24" font-family="system-ui, sans-serif" font-size="11" fill="${c.muted}">out of 5</text>` +
    `<text x="12" y="46" font-family="system-ui, sans-serif" font-size="12" fill="${c.text}">${h(count.format(aggregate.review_count))} verified reviews</text>` +
    `<text x="12" y="58" font-family="system-ui, sans-serif" font-size="10" fill="${c.muted}">${h(business.length > 38 ? `${business.slice(0, 37)}…` : business)}</text>` +
    `</svg>`
  );
}
