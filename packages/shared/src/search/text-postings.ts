import { LRUCache } from "lru-cache";
import { foldText } from "./fold.ts";
import { queryGrams } from "./grams.ts";
import { decodePosting, encodePosting, type Posting, unionOf } from "./postings.ts";
import type { SearchIndex } from "./search-index.ts";
import { isWordNeedle } from "./words.ts";

// The matches of recent needles (a word's union, or a text-only query's confirmed matches): a needle
// met again in a new combination of filters (another date window, rating or page) costs a lookup.
// Bounded in bytes per index.
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
 * What a text query selects. A needle of letters and digits only is the union of the postings of the
 * words holding it (exact, see words.ts); otherwise, up to 3 bytes it is one gram's posting (exact);
 * a longer needle already confirmed is its cached posting; else the reviews holding all its 3-byte
 * grams are candidates, to be confirmed with a substring test once the other filters have narrowed them.
 */
export type TextFilter =
  | { kind: "exact"; posting: Posting }
  | { kind: "candidates"; grams: Posting[]; needle: string }
  | { kind: "none" };

export function textFilter(index: SearchIndex, query: string): TextFilter {
  const needle = foldText(query);
  const cache = cacheOf(index);
  const cached = cache.get(needle);
  if (cached) return { kind: "exact", posting: cached };
  if (isWordNeedle(needle)) {
    const { words, postings } = index.words();
    const holding = postings.filter((_, i) => (words[i] as string).includes(needle));
    if (holding.length === 0) return { kind: "none" };
    const posting = unionOf(holding, index.count);
    cache.set(needle, posting);
    return { kind: "exact", posting };
  }
  const { keys, exact } = queryGrams(Buffer.from(needle));
  const grams: Posting[] = [];
  for (const key of keys) {
    const gram = index.gram(key);
    if (!gram) return { kind: "none" };
    grams.push(gram);
  }
  if (exact) return { kind: "exact", posting: grams[0] as Posting };
  return { kind: "candidates", grams, needle };
}

/** Keeps a text query's confirmed positions (taken from its matches over every review). */
export function rememberText(index: SearchIndex, needle: string, positions: ArrayLike<number>): void {
  cacheOf(index).set(needle, decodePosting(encodePosting(positions, index.count), positions.length, index.count));
}
