import { LRUCache } from "lru-cache";

/** A read answer as sent: its strong tags, its header sets and its bytes, each computed once. */
export interface CachedAnswer {
  etag: string;
  /** Headers of a 304, of the identity and of the gzip representation (each with its own strong tag). */
  notModified: Readonly<Record<string, string | number>>;
  headers: Readonly<Record<string, string | number>>;
  gzipHeaders?: Readonly<Record<string, string | number>>;
  body: Buffer;
  gzip?: Buffer;
}

export type AnswerCache = LRUCache<string, CachedAnswer>;

/** The largest answer kept; bigger ones (since without limit) are built per request. */
export const LARGEST_CACHED_ANSWER = 1024 * 1024;

// Repeated requests (a page's own links, polling clients, revalidations) skip parsing, searching
// and gzip; new queries are what the index is for, so the bound is memory, not hit rate.
// The key is the request target, which a client can pad (spaces around a technician's name, percent-
// encoding): both caches count it, and AskedOnce keeps no target longer than MAX_KEPT_TARGET (so no
// answer to one is kept either).
export const createAnswerCache = (): AnswerCache =>
  new LRUCache<string, CachedAnswer>({
    maxSize: 16 * 1024 * 1024,
    maxEntrySize: LARGEST_CACHED_ANSWER * 2,
    sizeCalculation: (answer, key) => key.length + answer.body.length + (answer.gzip?.length ?? 0) + 512,
  });

/** The longest request target whose answer is kept (ordinary ones are far shorter). */
export const MAX_KEPT_TARGET = 2048;

/**
 * Request targets asked once (their answer not kept), with their strong tag: an answer is kept from
 * its second request on, so a query asked once, as most new queries are, costs no copy of its body
 * and no cache churn (at 100k distinct queries the evicted bodies awaiting collection grew RSS past
 * its target); and a revalidation of a target asked before is answered without validating it again.
 */
export type AskedOnce = LRUCache<string, string>;

export const createAskedOnce = (): AskedOnce =>
  new LRUCache<string, string>({
    max: 20_000,
    maxSize: 4 * 1024 * 1024,
    maxEntrySize: MAX_KEPT_TARGET + 128,
    sizeCalculation: (tag, key) => key.length + tag.length + 64,
  });
