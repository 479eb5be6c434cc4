import { LRUCache } from "lru-cache";
import { foldText } from "./fold.ts";
import { queryGrams } from "./grams.ts";
import { evaluate, forEachMatch } from "./match.ts";
import { decodePosting, encodePosting, type Posting } from "./postings.ts";
import type { SearchIndex } from "./search-index.ts";

// The confirmed matches of recent text queries: a word met again in a new combination of filters
// (another date window, rating or page) costs a lookup. Bounded in bytes per index.
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
 * The reviews whose folded title or text contains the folded query. Up to 3 bytes it is one gram's
 * posting; longer, the reviews holding all its 3-byte grams are the candidates, and only they are
 * checked with a substring test. Undefined when a gram occurs in no review.
 */
export function textPosting(index: SearchIndex, query: string): Posting | undefined {
  const needle = foldText(query);
  const { keys, exact } = queryGrams(Buffer.from(needle));
  const grams = keys.map((key) => index.gram(key));
  if (grams.some((gram) => gram === undefined)) return undefined;
  if (exact) return grams[0];
  const cache = cacheOf(index);
  const cached = cache.get(needle);
  if (cached) return cached;
  const candidates = evaluate(
    index,
    grams.map((gram) => [gram as Posting]),
    0,
    index.count,
  );
  const confirmed: number[] = [];
  forEachMatch(candidates, (p) => {
    if (index.folded(p).includes(needle)) confirmed.push(p);
    return true;
  });
  const posting = decodePosting(encodePosting(confirmed, index.count), confirmed.length, index.count);
  cache.set(needle, posting);
  return posting;
}
