import { LRUCache } from "lru-cache";
import type { JsonChunks } from "../../../src/search/response-body.ts";

/** A read answer: its body as sent, and its gzip form once a client asked for it. */
export interface CachedAnswer {
  body: JsonChunks;
  gzip?: Buffer;
}

export type AnswerCache = LRUCache<string, CachedAnswer>;

/** Bytes the cache may hold, and the largest answer it keeps (bigger ones are built per request). */
export const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
export const LARGEST_CACHED_ANSWER = 1024 * 1024;

// Repeated queries (a page's own links, polling clients) skip the search and, compressed, the gzip
// work; new queries are what the index is for, so the bound is memory, not hit rate.
export const createAnswerCache = (): AnswerCache =>
  new LRUCache<string, CachedAnswer>({
    maxSize: ANSWER_CACHE_BYTES,
    maxEntrySize: LARGEST_CACHED_ANSWER * 2,
    sizeCalculation: (answer) => answer.body.length + (answer.gzip?.length ?? 0) + 256,
  });
