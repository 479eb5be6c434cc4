import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";

/**
 * An express-rate-limit store that answers synchronously: a fixed window per client, opened by the
 * client's first request, as the library's MemoryStore keeps them. The Store contract allows plain
 * values, so the library's middleware uses it unchanged, while a caller that must not wait (the MCP
 * tools/call fast path) counts through the same windows with `increment` and gets its answer at
 * once: MemoryStore answers with a promise, and that await chain cost a tool call about 8 µs of CPU.
 *
 * Memory stays bounded as in MemoryStore: clients live in two generations that rotate once a
 * window, so a client not seen for two windows is forgotten.
 */
export class ClientWindows implements Store {
  /** The counts live in this process: the library checks that one store is not shared by two limiters. */
  readonly localKeys = true;
  #windowMs = 60_000;
  #current = new Map<string, ClientRateLimitInfo>();
  #previous = new Map<string, ClientRateLimitInfo>();
  #rotation: NodeJS.Timeout | undefined;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Called by express-rate-limit with its options; the window starts rotating here. */
  init(options: Pick<Options, "windowMs">): void {
    this.#windowMs = options.windowMs;
    clearInterval(this.#rotation);
    this.#rotation = setInterval(() => this.rotate(), this.#windowMs);
    this.#rotation.unref();
  }

  increment(key: string): ClientRateLimitInfo {
    const now = this.#now();
    const client = this.#client(key, now);
    if ((client.resetTime as Date).getTime() <= now) {
      client.totalHits = 0;
      client.resetTime = new Date(now + this.#windowMs);
    }
    client.totalHits += 1;
    return client;
  }

  decrement(key: string): void {
    const client = this.#current.get(key) ?? this.#previous.get(key);
    if (client && client.totalHits > 0) client.totalHits -= 1;
  }

  get(key: string): ClientRateLimitInfo | undefined {
    const client = this.#current.get(key) ?? this.#previous.get(key);
    if (!client || (client.resetTime as Date).getTime() <= this.#now()) return undefined;
    return client;
  }

  resetKey(key: string): void {
    this.#current.delete(key);
    this.#previous.delete(key);
  }

  resetAll(): void {
    this.#current.clear();
    this.#previous.clear();
  }

  shutdown(): void {
    clearInterval(this.#rotation);
    this.resetAll();
  }

  /** One generation older: clients unseen since the last rotation are dropped at the next one. */
  rotate(): void {
    this.#previous = this.#current;
    this.#current = new Map();
  }

  /** Clients held, across both generations. */
  get size(): number {
    return this.#current.size + this.#previous.size;
  }

  #client(key: string, now: number): ClientRateLimitInfo {
    let client = this.#current.get(key);
    if (client) return client;
    client = this.#previous.get(key);
    if (client) this.#previous.delete(key);
    else client = { totalHits: 0, resetTime: new Date(now + this.#windowMs) };
    this.#current.set(key, client);
    return client;
  }
}
