import { createHash } from "node:crypto";
import { latestChange } from "../data/dataset.ts";
import type { Review } from "../schemas/review.ts";
import type { ReviewsDocument } from "../schemas/reviews-document.ts";
import type { SearchSort } from "../schemas/search.ts";
import { foldText } from "./fold.ts";

/**
 * The reviews of one build, indexed once at load so a request never scans and folds text: the four
 * sort orders as position arrays, membership bitmaps per rating, technician and service, and the
 * folded text of each review.
 */
export interface ReviewIndex {
  /** Newest first, as in reviews.json; a review's position in this array is its number. */
  reviews: readonly Review[];
  byId: ReadonlyMap<string, number>;
  /** Positions in each sort order. */
  orders: Readonly<Record<SearchSort, Uint32Array>>;
  /** Folded title and text per position, joined by a NUL (which no valid query contains). */
  folded: readonly string[];
  /** Folded technician key (id, display name or first name) -> display names it may mean. */
  technicianKeys: ReadonlyMap<string, readonly string[]>;
  /** Display name -> positions bitmap. */
  byTechnician: ReadonlyMap<string, Uint8Array>;
  /** Lower-case service id -> positions bitmap. */
  byService: ReadonlyMap<string, Uint8Array>;
  /** Identifies this data: cursors from another version are refused. */
  version: string;
  /** Latest change date in the data (YYYY-MM-DD), for Last-Modified. */
  lastChanged: string | undefined;
  timeZone: string;
}

function bitmaps(reviews: readonly Review[], keys: (review: Review) => readonly string[]): Map<string, Uint8Array> {
  const maps = new Map<string, Uint8Array>();
  reviews.forEach((review, position) => {
    for (const key of keys(review)) {
      let map = maps.get(key);
      if (!map) {
        map = new Uint8Array(reviews.length);
        maps.set(key, map);
      }
      map[position] = 1;
    }
  });
  return maps;
}

function order(reviews: readonly Review[], compare: (a: number, b: number) => number): Uint32Array {
  return Uint32Array.from(reviews.keys()).sort(compare);
}

export function buildReviewIndex(document: ReviewsDocument, version: string): ReviewIndex {
  const { reviews, business } = document;
  const byRatingDesc = (a: number, b: number) => (reviews[b]?.rating ?? 0) - (reviews[a]?.rating ?? 0) || a - b;
  const byRatingAsc = (a: number, b: number) => (reviews[a]?.rating ?? 0) - (reviews[b]?.rating ?? 0) || a - b;

  const technicianKeys = new Map<string, string[]>();
  const addKey = (key: string, name: string) => {
    const folded = foldText(key.trim());
    const names = technicianKeys.get(folded) ?? [];
    if (!names.includes(name)) names.push(name);
    technicianKeys.set(folded, names);
  };
  for (const technician of business.technicians) {
    addKey(technician.id, technician.name);
    addKey(technician.name, technician.name);
    addKey(technician.name.split(/\s+/)[0] ?? technician.name, technician.name);
  }

  return {
    reviews,
    byId: new Map(reviews.map((review, position) => [review.id, position])),
    orders: {
      // Positions are already newest first (date, then id), so position order breaks every tie.
      newest: Uint32Array.from(reviews.keys()),
      oldest: Uint32Array.from(reviews.keys()).reverse(),
      highest: order(reviews, byRatingDesc),
      lowest: order(reviews, byRatingAsc),
    },
    folded: reviews.map((review) => foldText(review.title ? `${review.title}\u0000${review.text}` : review.text)),
    technicianKeys,
    byTechnician: bitmaps(reviews, (review) => review.technicians),
    byService: bitmaps(reviews, (review) => review.services.map((id) => id.toLowerCase())),
    version: createHash("sha256").update(version).digest("base64url").slice(0, 12),
    lastChanged: latestChange(reviews),
    timeZone: business.time_zone,
  };
}
