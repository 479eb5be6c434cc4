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

/**
 * Positions by rating (highest or lowest first), ties in position order (newest first): a bucket
 * per rating value filled in position order, a tenth of the time of a comparison sort at 100k.
 */
function byRating(reviews: readonly Review[], direction: 1 | -1): Uint32Array {
  const buckets = new Map<number, number[]>();
  reviews.forEach((review, position) => {
    const bucket = buckets.get(review.rating);
    if (bucket) bucket.push(position);
    else buckets.set(review.rating, [position]);
  });
  const ratings = [...buckets.keys()].sort((a, b) => (b - a) * direction);
  return Uint32Array.from(ratings.flatMap((rating) => buckets.get(rating) ?? []));
}

export function buildReviewIndex(document: ReviewsDocument, version: string): ReviewIndex {
  const { reviews, business } = document;

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

  // Folding every text costs a fifth of a second and 25 MB at 100k reviews and only text queries need
  // it: done on the first one.
  let folded: string[] | undefined;
  return {
    reviews,
    byId: new Map(reviews.map((review, position) => [review.id, position])),
    orders: {
      // Positions are already newest first (date, then id), so position order breaks every tie.
      newest: Uint32Array.from(reviews.keys()),
      oldest: Uint32Array.from(reviews.keys()).reverse(),
      highest: byRating(reviews, 1),
      lowest: byRating(reviews, -1),
    },
    get folded() {
      folded ??= reviews.map((review) => foldText([review.title, review.text].filter(Boolean).join("\u0000")));
      return folded;
    },
    technicianKeys,
    byTechnician: bitmaps(reviews, (review) => review.technicians),
    byService: bitmaps(reviews, (review) => review.services.map((id) => id.toLowerCase())),
    version: createHash("sha256").update(version).digest("base64url").slice(0, 12),
    lastChanged: latestChange(reviews),
    timeZone: business.time_zone,
  };
}
