import { escapeHtml as h } from "../html.ts";
import { type Listing, type Listings, listingPath } from "./listings.ts";

const count = new Intl.NumberFormat("en-US");

/** "1,234 reviews": one formatter with a fixed locale, so the output does not depend on the machine. */
export function reviewCount(n: number): string {
  return `${count.format(n)} ${n === 1 ? "review" : "reviews"}`;
}

/** Where the counts of a page's filter bar come from: its own listing, as a selection of reviews. */
export interface BarSelection {
  listing: Listing;
  /** Heading of the listing, e.g. "1-star reviews". */
  title: string;
  /** How many of its reviews each other listing holds (see selection-counts.ts). */
  counts: ReadonlyMap<Listing, number>;
}

function option(listing: Listing, current: Listing, firstPage: boolean, selection: BarSelection | undefined): string {
  // The current filter's link is the page itself only on its first page; further pages are "in" it.
  const mark = listing === current ? ` aria-current="${firstPage ? "page" : "true"}"` : "";
  const total = listing.reviews.length;
  // Another filter's value is counted within the selection; its link (no static page combines two
  // filters) opens all of that value's reviews, which the "all N" after the count says.
  const within = selection !== undefined && listing.kind !== "all" && listing.kind !== selection.listing.kind;
  const shown = within ? (selection.counts.get(listing) ?? 0) : total;
  const leads = within ? ` <span class="leads">· all ${count.format(total)}</span>` : "";
  return (
    `<li><a href="${listingPath(listing)}" data-filter-kind="${listing.kind}" data-filter-value="${h(listing.value)}"` +
    ` data-filter-label="${h(listing.label)}"${mark}>${h(listing.label)} <span class="count">(${count.format(shown)})</span>${leads}</a></li>`
  );
}

/**
 * The filter bar of the review browser: plain links to the static listings, with counts, so
 * filtering works without JavaScript; review-filter.js reads its data attributes for its form.
 * On a filtered listing (`selection`), the other filters' counts are those of its reviews.
 */
export function filterBarHtml(
  listings: Listings,
  current: Listing,
  firstPage: boolean,
  selection?: BarSelection,
): string {
  const groups = listings.groups
    .map(
      (group) =>
        `<div class="filter-group"><h2 id="filter-${group.kind}">${h(group.title)}</h2>` +
        `<ul aria-labelledby="filter-${group.kind}">${group.listings.map((l) => option(l, current, firstPage, selection)).join("")}</ul></div>`,
    )
    .join("");
  const note =
    selection === undefined
      ? "Each count is the number of reviews its link lists."
      : `Counts in brackets are within this listing (${h(selection.title)}, ${reviewCount(selection.listing.reviews.length)}).` +
        " A page lists one filter at a time, so a link to another kind of filter opens all of its reviews (“all N”).";
  return (
    `<nav class="filters" id="review-filters" aria-label="Filter reviews">` +
    `<p class="meta">${note}</p>` +
    `<ul class="filter-all">${option(listings.all, current, firstPage, selection)}</ul>${groups}</nav>`
  );
}
