import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import { PAGE_SIZE, pageCount } from "@riverbend/shared/web/pagination.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { escapeHtml as h } from "../html.ts";
import { pageShell } from "../render/page-shell.ts";
import { articleBodies } from "./articles.ts";
import { filterBarHtml, reviewCount } from "./filter-bar.ts";
import { buildListings, type Listing, type Listings, listingPath, type TopicListing } from "./listings.ts";
import { pagerHtml } from "./pager.ts";
import { selectionCounter } from "./selection-counts.ts";

/** The page's own assets: the script only enhances, so it is deferred and the page works without it. */
const HEAD = `<link rel="stylesheet" href="/browser.css"><script src="/review-filter.js" defer></script>`;

// review-filter.js mounts its form in #review-search (shown only when the search API answers).
const LIST_START = Buffer.from(`<div id="review-search" hidden></div><div id="review-list">`);
const EMPTY_LIST_START = Buffer.from(
  `<div id="review-search" hidden></div><div id="review-list"><p class="empty">No reviews yet.</p>`,
);

/** The page heading, and the words that narrow "reviews" in the meta description. */
function describe(listing: Listing): { heading: string; scope: string } {
  switch (listing.kind) {
    case "all":
      return { heading: "All reviews", scope: "" };
    case "rating":
      return { heading: `${listing.value}-star reviews`, scope: ` rated ${listing.label}` };
    case "technician":
      return { heading: `Reviews of jobs by ${listing.label}`, scope: ` for jobs by ${listing.label}` };
    case "service":
      return { heading: `Reviews: ${listing.label}`, scope: ` for ${listing.label}` };
    case "area":
      return { heading: `Reviews from ${listing.label}`, scope: ` from ${listing.label}` };
    case "topic":
      return { heading: `Reviews on ${listing.label}`, scope: ` that judge ${listing.label}` };
  }
}

export interface BrowserSite {
  listings: Listings;
  pages(listing: Listing): number;
  /**
   * Page `page` (1-based) of a listing as UTF-8 chunks (PAGE_SIZE reviews newest first, filter bar,
   * pager): the writer hands them to one writev, so no page is ever copied into one buffer.
   */
  page(listing: Listing, page: number): Buffer[];
}

/**
 * The review browser of a dataset. Filter bars are rendered once per listing, not per page: they
 * only differ in which option is current.
 */
export function browserSite(dataset: Dataset, urls: SiteUrls, topics: readonly TopicListing[] = []): BrowserSite {
  const { business } = dataset;
  const articles = articleBodies(dataset);
  const listings = buildListings(dataset, topics);
  const bars = new Map<string, Buffer>();
  const counter = selectionCounter(listings);
  const counted = new Map<Listing, ReadonlyMap<Listing, number>>();
  const countsWithin = (listing: Listing) => {
    let counts = counted.get(listing);
    if (counts === undefined) {
      counts = counter(listing);
      counted.set(listing, counts);
    }
    return counts;
  };
  const filterBar = (listing: Listing, firstPage: boolean) => {
    const key = `${listingPath(listing)}${firstPage}`;
    let bar = bars.get(key);
    if (bar === undefined) {
      const selection =
        listing.kind === "all"
          ? undefined
          : { listing, title: describe(listing).heading, counts: countsWithin(listing) };
      bar = Buffer.from(filterBarHtml(listings, listing, firstPage, selection));
      bars.set(key, bar);
    }
    return bar;
  };
  const pages = (listing: Listing) => pageCount(listing.reviews.length);

  function pageBody(listing: Listing, page: number): Buffer[] {
    const total = listing.reviews.length;
    const count = pages(listing);
    if (page < 1 || page > count) throw new RangeError(`${listingPath(listing)} has no page ${page}`);
    const { heading: title, scope } = describe(listing);
    const shell = pageShell({
      title: `${title}, page ${page} of ${count} · ${business.name}`,
      description: `${reviewCount(total)} of ${business.name}${scope}, newest first.`,
      canonical: `${urls.base}${listingPath(listing, page)}`,
      businessName: business.name,
      urls,
      head: HEAD,
    });
    const first = (page - 1) * PAGE_SIZE;
    const last = Math.min(total, first + PAGE_SIZE);
    const shown = total === 0 ? "" : ` Showing ${first + 1}–${last}.`;
    const parts: Buffer[] = [
      Buffer.from(
        `${shell.start}<div id="review-browser" data-listing-kind="${listing.kind}" data-listing-value="${h(listing.value)}"` +
          ` data-page="${page}" data-pages="${count}" data-total="${total}" data-business-name="${h(business.name)}"` +
          ` data-search-api="/api/reviews/search">` +
          `<h1>${h(title)} <small>page ${page} of ${count}</small></h1>` +
          `<p class="meta" id="review-summary">${reviewCount(total)}, newest first.${shown}</p>`,
      ),
      filterBar(listing, page === 1),
      total === 0 ? EMPTY_LIST_START : LIST_START,
    ];
    for (let i = first; i < last; i++) parts.push(articles[listing.reviews[i] as number] as Buffer);
    parts.push(Buffer.from(`</div>${pagerHtml(listing, page, count)}</div>${shell.end}`));
    return parts;
  }

  return { listings, pages, page: pageBody };
}
