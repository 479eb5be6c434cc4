/**
 * The naive reference the search tests compare with: written independently of packages/shared/src/search, as
 * simply as possible (filter, sort, slice).
 */
import type { Review } from "@riverbend/shared/schemas/review.ts";
import type { SearchSort } from "@riverbend/shared/schemas/search.ts";
import { dataset, REVIEWS } from "./search-fixture.ts";

export interface NaiveParams {
  rating?: number;
  min_rating?: number;
  since?: string;
  until?: string;
  query?: string;
  mentions_technician?: string;
  mentions_service?: string;
  limit?: number;
  sort?: SearchSort;
}

const plain = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

function technicianNamesFor(key: string): string[] {
  const wanted = key.trim().toLowerCase();
  return dataset.business.technicians
    .filter(
      (t) =>
        t.id.toLowerCase() === wanted ||
        t.name.toLowerCase() === wanted ||
        (t.name.split(" ")[0] ?? "").toLowerCase() === wanted,
    )
    .map((t) => t.name);
}

/** Newest first: date descending, then id descending. */
function newestFirst(a: Review, b: Review): number {
  if (a.date !== b.date) return a.date > b.date ? -1 : 1;
  if (a.id !== b.id) return a.id > b.id ? -1 : 1;
  return 0;
}

const ORDERS: Record<SearchSort, (a: Review, b: Review) => number> = {
  newest: newestFirst,
  // Oldest is exactly the reverse of newest: date ascending, then id ascending.
  oldest: (a, b) => newestFirst(b, a),
  // Rating ties: newest first, then id.
  highest: (a, b) => b.rating - a.rating || newestFirst(a, b),
  lowest: (a, b) => a.rating - b.rating || newestFirst(a, b),
};

function naiveMatches(params: NaiveParams): Review[] {
  const names = params.mentions_technician === undefined ? [] : technicianNamesFor(params.mentions_technician);
  const matches = REVIEWS.filter((review) => {
    if (params.rating !== undefined && review.rating !== params.rating) return false;
    if (params.min_rating !== undefined && review.rating < params.min_rating) return false;
    if (params.since !== undefined && review.date < params.since) return false;
    if (params.until !== undefined && review.date > params.until) return false;
    if (params.query !== undefined) {
      const needle = plain(params.query);
      if (!plain(review.text ?? "").includes(needle) && !plain(review.title ?? "").includes(needle)) return false;
    }
    if (params.mentions_technician !== undefined && !review.technicians.some((name) => names.includes(name))) {
      return false;
    }
    if (
      params.mentions_service !== undefined &&
      !review.services.some((id) => id.toLowerCase() === params.mentions_service?.toLowerCase())
    ) {
      return false;
    }
    return true;
  });
  return matches.sort(ORDERS[params.sort ?? "newest"]);
}

export const naiveIds = (params: NaiveParams) => naiveMatches(params).map((review) => review.id);

export function toQueryString(params: Record<string, unknown>): string {
  return Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join("&");
}
