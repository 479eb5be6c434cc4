import { LRUCache } from "lru-cache";

/** When a session id was issued, in epoch seconds (its first field: `<issued>.<expires>.<nonce>.<hmac>`). */
const issuedAt = (id: string) => Number(id.slice(0, id.indexOf(".")));

/**
 * Terminated session ids, in bounded memory. Forgetting one must not bring its session back: when
 * the bound evicts an id, every id issued up to that one's issue time is refused from then on (their
 * holders initialize again), so an eviction narrows what is valid instead of widening it.
 */
export class RevokedIds {
  readonly #ids: LRUCache<string, true>;
  /** Ids issued at or before this second are refused (0: none). */
  #floor = 0;

  constructor(max: number) {
    this.#ids = new LRUCache({
      max,
      dispose: (_value, id, reason) => {
        if (reason === "evict") this.#floor = Math.max(this.#floor, issuedAt(id));
      },
    });
  }

  /** Remembers a terminated id until `expiresAt` (epoch ms), when it would have stopped being valid anyway. */
  add(id: string, expiresAt: number, now: number): void {
    const ttl = expiresAt - now;
    if (ttl > 0) this.#ids.set(id, true, { ttl });
  }

  /** Whether a session id is terminated, or may have been and was forgotten. */
  has(id: string): boolean {
    return issuedAt(id) <= this.#floor || this.#ids.has(id);
  }
}
