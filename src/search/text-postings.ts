import { LRUCache } from "lru-cache";
import { foldText } from "./fold.ts";
import { queryGrams } from "./grams.ts";
import { decodePosting, encodePosting, type Posting } from "./postings.ts";
import type { SearchIndex } from "./search-index.ts";

// The confirmed matches of recent text-only queries: a word met again in a new combination of
// filters (another date window, rating or page) costs a lookup. Bounded in bytes per index.
const CACHE_BYTES = 8 * 1024 * 1024;
const caches = new WeakMap<SearchIndex, LRUCache<string, Posting>>();

function cacheOf(index: SearchIndex): LRUCache<string, Posting> {
  let cache = caches.get(index);
  if (!cache) {
    cache = new LRUCache<string, Posting>({
      maxSize: CACHE_BYTES,
      sizeCalculation: (posting) =>
        (posting.kind === "bits" ? posting.words.byteLength : posting.positions.byteLength) + 64,
    });
    caches.set(index, cache);
  }
  return cache;
}

/**
 * What a text query selects. Up to 3 bytes it is one gram's posting (exact); a longer query already
 * confirmed is its cached posting; otherwise the reviews holding all its 3-byte grams are candidates,
 * to be confirmed with a substring test once the other filters have narrowed them.
 */
export type TextFilter =
  | { kind: "exact"; posting: Posting }
  | { kind: "candidates"; grams: Posting[]; needle: string }
  | { kind: "none" };

export function textFilter(index: SearchIndex, query: string): TextFilter {
  const needle = foldText(query);
  const { keys, exact } = queryGrams(Buffer.from(needle));
  const grams: Posting[] = [];
  for (const key of keys) {
    const gram = index.gram(key);
    if (!gram) return { kind: "none" };
    grams.push(gram);
  }
  if (exact) return { kind: "exact", posting: grams[0] as Posting };
  const cached = cacheOf(index).get(needle);
  return cached ? { kind: "exact", posting: cached } : { kind: "candidates", grams, needle };
}

/** Keeps a text query's confirmed positions (taken from its matches over every review). */
export function rememberText(index: SearchIndex, needle: string, positions: ArrayLike<number>): void {
  cacheOf(index).set(needle, decodePosting(encodePosting(positions, index.count), positions.length, index.count));
}
