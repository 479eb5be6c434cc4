import type { Logger } from "pino";
import type { HubRequest, LeasePolicy } from "../../../src/hub/hub-request.ts";
import { topicUrls } from "../../../src/hub/topics.ts";
import type { SiteUrls, TopicPath } from "../../../src/site/urls.ts";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { type TopicContent, topicContent } from "./content.ts";
import { deliver, type RetryPolicy } from "./distributor.ts";
import type { GuardedClient } from "./outbound/guarded-client.ts";
import type { HubStore } from "./store/hub-store.ts";
import { verifyIntent } from "./verifier.ts";

export interface HubOptions {
  store: HubStore;
  bundles: BundleStore;
  client: GuardedClient;
  urls: SiteUrls;
  lease: LeasePolicy;
  retry: RetryPolicy;
  logger: Logger;
  now?: () => number;
  /** How often due deliveries and expired leases are looked for, besides on every change. */
  tickMs?: number;
}

/**
 * The WebSub hub: verifies intents asynchronously, notices changed topics (by manifest hash against
 * the last distributed hash, in the store) and works off the store's owed deliveries.
 */
export class Hub {
  readonly topics: ReadonlyMap<string, TopicPath>;
  readonly lease: LeasePolicy;
  readonly #options: HubOptions;
  readonly #now: () => number;
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #delivering = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #draining = false;
  readonly #contentCache = new Map<string, TopicContent>();
  readonly outcomes = { delivered: 0, failed: 0, removed: 0, gone: 0, verified: 0, unverified: 0 };

  constructor(options: HubOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.topics = topicUrls(options.urls);
    this.lease = options.lease;
  }

  get store(): HubStore {
    return this.#options.store;
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inFlight.add(promise);
    void promise.finally(() => this.#inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  /** Resolves when no verification or delivery is in progress (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Refuses a callback whose address is an IP literal the policy forbids (names are checked at connect). */
  checkCallbackAddress(callback: string): string | undefined {
    try {
      this.#options.client.check(callback);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** Accepts a validated subscribe or unsubscribe; verification runs after the 202 is sent. */
  accept(request: Extract<HubRequest, { mode: "subscribe" | "unsubscribe" }>): void {
    this.#track(this.#verify(request));
  }

  async #verify(request: Extract<HubRequest, { mode: "subscribe" | "unsubscribe" }>): Promise<void> {
    const confirmed = await verifyIntent(this.#options.client, request);
    const { store, logger } = this.#options;
    this.outcomes[confirmed ? "verified" : "unverified"]++;
    logger.info({ mode: request.mode, topic: request.topic, confirmed }, "websub verification");
    if (!confirmed) return;
    if (request.mode === "subscribe") {
      store.upsertSubscription({
        topic: request.topic,
        callback: request.callback,
        secret: request.secret,
        leaseSeconds: request.leaseSeconds,
        expiresAt: this.#now() + request.leaseSeconds * 1000,
      });
    } else {
      store.removeSubscription(request.topic, request.callback);
    }
  }

  #content(topic: string): TopicContent | undefined {
    const path = this.topics.get(topic);
    const bundle = this.#options.bundles.current.bundle;
    const entry = path ? bundle.entries.get(path) : undefined;
    if (!path || !entry) return undefined;
    const cached = this.#contentCache.get(topic);
    if (cached?.sha256 === entry.sha256) return cached;
    const content = topicContent(bundle, path);
    if (content) this.#contentCache.set(topic, content);
    return content;
  }

  /** Compares every topic's hash with the last distributed one; owes deliveries for those that differ. */
  detectChanges(): string[] {
    const { store, bundles, logger } = this.#options;
    const changed: string[] = [];
    for (const [topic, path] of this.topics) {
      const sha = bundles.current.bundle.entries.get(path)?.sha256;
      if (!sha || store.distributedHash(topic) === sha) continue;
      const owed = store.markChanged(topic, sha, this.#now());
      logger.info({ topic, sha256: sha, subscribers: owed }, "websub topic changed");
      changed.push(topic);
    }
    if (changed.length > 0) this.kick();
    return changed;
  }

  /** Works off due deliveries until none is left, at most the client's concurrency at a time. */
  kick(): void {
    if (this.#draining) return;
    this.#draining = true;
    this.#track(this.#drain()).finally(() => {
      this.#draining = false;
    });
  }

  async #drain(): Promise<void> {
    const { store, client, retry, urls } = this.#options;
    for (;;) {
      const due = store
        .dueDeliveries(this.#now(), 500)
        .filter((d) => !this.#delivering.has(`${d.topic} ${d.callback}`));
      if (due.length === 0) return;
      await Promise.all(
        due.map((pending) => {
          const key = `${pending.topic} ${pending.callback}`;
          this.#delivering.add(key);
          return this.#track(
            deliver(
              {
                store,
                client,
                retry,
                hubUrl: urls.hub,
                content: (topic) => this.#content(topic),
                now: this.#now,
                onOutcome: (outcome) => this.outcomes[outcome]++,
              },
              pending,
            ),
          ).finally(() => this.#delivering.delete(key));
        }),
      );
    }
  }

  /** Starts the periodic sweep: expired leases are purged and postponed deliveries retried. */
  start(): void {
    this.detectChanges();
    this.kick();
    this.#timer = setInterval(() => {
      this.#options.store.purgeExpired(this.#now());
      this.kick();
    }, this.#options.tickMs ?? 1000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.idle();
  }
}
