import { escapeHtml as h } from "../html.ts";
import { n } from "./svg.ts";

// A five-pointed star in a 20×20 box, drawn from its top point with relative moves only, so one
// path can hold all five (a transform per star would give each its own gradient space).
const STAR = "l2.6 5.6 6.1.7-4.5 4.2 1.2 6-5.4-3-5.4 3 1.2-6-4.5-4.2 6.1-.7z";

/**
 * Five stars filled to `rating` (0..5, fractions included, e.g. 4.29 fills 85.8% of the row), as an
 * inline SVG image labelled with the figure. `id` names the gradient and must be unique in the page.
 */
export function starRatingSvg(rating: number, id: string, size = 20): string {
  const clamped = Math.min(5, Math.max(0, rating));
  const fill = `${n((clamped / 5) * 100)}%`;
  const stars = [0, 1, 2, 3, 4].map((i) => `M${10 + i * 20} 1.3${STAR}`).join("");
  const label = `Rated ${Math.round(clamped * 100) / 100} out of 5`;
  return (
    `<svg class="star-rating" viewBox="0 0 100 20" width="${size * 5}" height="${size}" role="img" aria-label="${h(label)}" focusable="false">` +
    `<defs><linearGradient id="${h(id)}" gradientUnits="userSpaceOnUse" x1="0" x2="100" y1="0" y2="0">` +
    `<stop offset="${fill}" class="star-on"/><stop offset="${fill}" class="star-off"/></linearGradient></defs>` +
    `<path fill="url(#${h(id)})" d="${stars}"/></svg>`
  );
}
