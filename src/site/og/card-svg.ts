import type { Review } from "@riverbend/shared/schemas/review.ts";
import type { AggregateRating } from "@riverbend/shared/schemas/reviews-document.ts";
import { displayDate } from "../home/dates.ts";
import { escapeHtml as h } from "../html.ts";
import { VERIFICATION_METHODS } from "../verification/methods.ts";

const W = 1200;
const H = 630;
const count = new Intl.NumberFormat("en-US");
const STAR = "l2.6 5.6 6.1.7-4.5 4.2 1.2 6-5.4-3-5.4 3 1.2-6-4.5-4.2 6.1-.7z";

/** Five stars, `filled` (0-5, fractions too) in amber, at (x, y) scaled to `size` px a star. */
function starRow(filled: number, x: number, y: number, size: number): string {
  const d = [0, 1, 2, 3, 4].map((i) => `M${10 + i * 20} 1.3${STAR}`).join("");
  const clip = Math.max(0, Math.min(5, filled)) * 20;
  return (
    `<g transform="translate(${x} ${y}) scale(${size / 20})">` +
    `<clipPath id="on"><rect width="${clip}" height="20"/></clipPath>` +
    `<path d="${d}" fill="#d4d8de"/><path d="${d}" fill="#f59e0b" clip-path="url(#on)"/></g>`
  );
}

function frame(business: string, lines: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    `<rect width="${W}" height="${H}" fill="#0a58a8"/><rect x="40" y="40" width="${W - 80}" height="${H - 80}" rx="28" fill="#ffffff"/>` +
    `<text x="100" y="170" font-family="Liberation Sans" font-weight="bold" font-size="64" fill="#18202b">${h(business)}</text>` +
    `${lines}<text x="100" y="540" font-family="Liberation Sans" font-size="30" fill="#4a5462">Verified customer reviews</text></svg>`
  );
}

/** The home page's card: the business, its stars and average, and how many verified reviews. */
export function homeCardSvg(business: string, aggregate: AggregateRating): string {
  const figure =
    aggregate.review_count === 0
      ? "No reviews yet"
      : `${aggregate.rating_value.toFixed(2)} out of 5 · ${count.format(aggregate.review_count)} verified reviews`;
  return frame(
    business,
    starRow(aggregate.rating_value, 100, 230, 80) +
      `<text x="100" y="420" font-family="Liberation Sans" font-size="48" fill="#18202b">${h(figure)}</text>`,
  );
}

/** A permalink's card: the review's stars and what they mean, for the business. */
export function reviewCardSvg(business: string, rating: number): string {
  return frame(
    business,
    starRow(rating, 100, 230, 80) +
      `<text x="100" y="420" font-family="Liberation Sans" font-size="48" fill="#18202b">A ${rating}-star review by a verified customer</text>`,
  );
}

/**
 * Up to `lines` lines of at most `width` characters, cut at spaces, the last ending in "…" when the
 * text goes on. Counted in characters: resvg does not wrap, and Liberation Sans at these sizes keeps
 * a line of this many characters inside the card.
 */
export function wrapText(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = "";
  const words = text.replace(/\s+/g, " ").trim().split(" ");
  for (let i = 0; i < words.length; i++) {
    const word = (words[i] as string).slice(0, width);
    if (line === "" || line.length + 1 + word.length <= width) {
      line = line === "" ? word : `${line} ${word}`;
      continue;
    }
    out.push(line);
    line = word;
    if (out.length === lines) {
      const last = out[lines - 1] as string;
      out[lines - 1] = `${last.length >= width ? last.slice(0, width - 1) : last}…`;
      return out;
    }
  }
  if (line !== "") out.push(line);
  return out;
}

/** One review's own card: its stars, headline, author and date, and how it was verified. */
export function permalinkCardSvg(business: string, review: Review): string {
  const headline = wrapText(review.title ?? review.text ?? `Review by ${review.author.name}`, 40, 2)
    .map((line, i) => `<tspan x="100" y="${340 + i * 56}">${h(line)}</tspan>`)
    .join("");
  const author = review.author.name + (review.author.locality ? `, ${review.author.locality}` : "");
  const byline = `${author} · ${displayDate(review.date)}`;
  const method = VERIFICATION_METHODS[review.verification.method].label;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    `<rect width="${W}" height="${H}" fill="#0a58a8"/><rect x="40" y="40" width="${W - 80}" height="${H - 80}" rx="28" fill="#ffffff"/>` +
    `<text x="100" y="140" font-family="Liberation Sans" font-weight="bold" font-size="44" fill="#18202b">${h(business)}</text>` +
    starRow(review.rating, 100, 180, 64) +
    `<text font-family="Liberation Sans" font-weight="bold" font-size="46" fill="#18202b">${headline}</text>` +
    `<text x="100" y="500" font-family="Liberation Sans" font-size="30" fill="#4a5462">${h(wrapText(byline, 62, 1)[0] ?? "")}</text>` +
    `<text x="100" y="548" font-family="Liberation Sans" font-size="28" fill="#4a5462">Verified: ${h(method)}</text></svg>`
  );
}
