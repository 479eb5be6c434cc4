import { allListings, type Listing, type Listings } from "./listings.ts";

/**
 * For each listing, how many of a given listing's reviews it also holds, keyed by listing: the
 * counts a static page shows beside the other filters. One pass over the selection's reviews, each
 * visiting the few listings it belongs to (a rating, its technicians, services, area and topics).
 */
export function selectionCounter(listings: Listings): (selection: Listing) => ReadonlyMap<Listing, number> {
  const memberOf: Listing[][] = listings.all.reviews.map(() => []);
  for (const listing of allListings(listings)) {
    if (listing.kind === "all") continue;
    for (const position of listing.reviews) memberOf[position]?.push(listing);
  }
  return (selection) => {
    const counts = new Map<Listing, number>();
    for (const position of selection.reviews) {
      for (const listing of memberOf[position] ?? []) counts.set(listing, (counts.get(listing) ?? 0) + 1);
    }
    return counts;
  };
}
