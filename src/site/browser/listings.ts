import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { TopicListing } from "../../insights/topics/rank-topics.ts";

/** The filters of the review browser, each with static pages of its own. */
export type ListingKind = "all" | "rating" | "technician" | "service" | "area" | "topic";

export type { TopicListing };

/** One static listing: the reviews one filter selects, as positions in the dataset (newest first). */
export interface Listing {
  kind: ListingKind;
  /** Rating digit or catalogue id; empty for "all". */
  value: string;
  /** Name shown in the filter bar, e.g. "5 stars" or "Luis O.". */
  label: string;
  reviews: readonly number[];
}

export interface ListingGroup {
  kind: Exclude<ListingKind, "all">;
  title: string;
  listings: readonly Listing[];
}

export interface Listings {
  all: Listing;
  /** Rating (5 to 1), technician, service, area: options in catalogue order, empty ones included. */
  groups: readonly ListingGroup[];
}

const RATINGS = [5, 4, 3, 2, 1] as const;

/**
 * Every single-filter listing in one pass over the reviews. Combinations are left to the search API:
 * their number grows with the product of the catalogues, while these pages add up to about five
 * times the reviews whatever the catalogues hold.
 */
export function buildListings(dataset: Dataset, topics: readonly TopicListing[] = []): Listings {
  const { business, reviews } = dataset;
  const all: number[] = [];
  const byRating = new Map<number, number[]>(RATINGS.map((r) => [r, []]));
  const byTechnician = new Map<string, number[]>(business.technicians.map((t) => [t.name, []]));
  const byService = new Map<string, number[]>(business.services.map((s) => [s.id, []]));
  const byArea = new Map<string, number[]>(business.service_areas.map((a) => [a.id, []]));
  reviews.forEach((review, position) => {
    all.push(position);
    byRating.get(review.rating)?.push(position);
    // A name listed twice on one review must not list the review twice.
    for (const name of new Set(review.technicians)) byTechnician.get(name)?.push(position);
    for (const id of new Set(review.services)) byService.get(id)?.push(position);
    byArea.get(review.service_area)?.push(position);
  });
  const listing = (kind: ListingKind, value: string, label: string, positions: number[] | undefined): Listing => ({
    kind,
    value,
    label,
    reviews: positions ?? [],
  });
  return {
    all: listing("all", "", "All reviews", all),
    groups: [
      {
        kind: "rating",
        title: "Rating",
        listings: RATINGS.map((r) => listing("rating", String(r), r === 1 ? "1 star" : `${r} stars`, byRating.get(r))),
      },
      {
        kind: "technician",
        title: "Technician",
        listings: business.technicians.map((t) => listing("technician", t.id, t.name, byTechnician.get(t.name))),
      },
      {
        kind: "service",
        title: "Service",
        listings: business.services.map((s) => listing("service", s.id, s.name, byService.get(s.id))),
      },
      {
        kind: "area",
        title: "Area",
        listings: business.service_areas.map((a) => listing("area", a.id, a.name, byArea.get(a.id))),
      },
      ...(topics.length === 0
        ? []
        : [
            {
              kind: "topic" as const,
              title: "Topic",
              listings: topics.map((t) => listing("topic", t.id, t.label, [...t.reviews])),
            },
          ]),
    ],
  };
}

/** Every listing, "all" first, in the order of the filter bar. */
export function allListings(listings: Listings): Listing[] {
  return [listings.all, ...listings.groups.flatMap((group) => group.listings)];
}

/** URL path of page `page` (1-based) of a listing: /reviews/, /reviews/page/2/, /reviews/rating/5/page/2/. */
export function listingPath(listing: Pick<Listing, "kind" | "value">, page = 1): string {
  const base = listing.kind === "all" ? "/reviews/" : `/reviews/${listing.kind}/${encodeURIComponent(listing.value)}/`;
  return page <= 1 ? base : `${base}page/${page}/`;
}
