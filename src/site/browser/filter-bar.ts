import { escapeHtml as h } from "../html.ts";
import { type Listing, type Listings, listingPath } from "./listings.ts";

const count = new Intl.NumberFormat("en-US");

/** "1,234 reviews": one formatter with a fixed locale, so the output does not depend on the machine. */
export function reviewCount(n: number): string {
  return `${count.format(n)} ${n === 1 ? "review" : "reviews"}`;
}

function option(listing: Listing, current: Listing, firstPage: boolean): string {
  // The current filter's link is the page itself only on its first page; further pages are "in" it.
  const mark = listing === current ? ` aria-current="${firstPage ? "page" : "true"}"` : "";
  return (
    `<li><a href="${listingPath(listing)}" data-filter-kind="${listing.kind}" data-filter-value="${h(listing.value)}"` +
    ` data-filter-label="${h(listing.label)}"${mark}>${h(listing.label)} <span class="count">(${count.format(listing.reviews.length)})</span></a></li>`
  );
}

/**
 * The filter bar of the review browser: plain links to the static listings, with counts, so
 * filtering works without JavaScript; review-filter.js reads its data attributes for its form.
 */
export function filterBarHtml(listings: Listings, current: Listing, firstPage: boolean): string {
  const groups = listings.groups
    .map(
      (group) =>
        `<div class="filter-group"><h2 id="filter-${group.kind}">${h(group.title)}</h2>` +
        `<ul aria-labelledby="filter-${group.kind}">${group.listings.map((l) => option(l, current, firstPage)).join("")}</ul></div>`,
    )
    .join("");
  return (
    `<nav class="filters" id="review-filters" aria-label="Filter reviews">` +
    // Static pages hold one filter each: the counts say what each link leads to, not a combination.
    `<p class="meta">One filter at a time; each count is that listing's total.</p>` +
    `<ul class="filter-all">${option(listings.all, current, firstPage)}</ul>${groups}</nav>`
  );
}
