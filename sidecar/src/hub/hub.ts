import type { Logger } from "pino";
import { type HubRequest, HubRequestError, type LeasePolicy } from "../../../src/hub/hub-request.ts";
import { topicUrls } from "../../../src/hub/topics.ts";
import type { SiteUrls, TopicPath } from "../../../src/site/urls.ts";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { type TopicContent, topicContent } from "./content.ts";
import { deliver, type RetryPolicy } from "./distributor.ts";
import type { GuardedClient } from "./outbound/guarded-client.ts";
import type { HubStore, PendingIntent } from "./store/hub-store.ts";
import { verifyIntent } from "./verifier.ts";

export interface HubOptions {
  store: HubStore;
  bundles: BundleStore;
  client: GuardedClient;
  urls: SiteUrls;
  lease: LeasePolicy;
  retry: RetryPolicy;
  logger: Logger;
  /** Subscriptions per callback host and in all, pending verifications included. */
  caps?: { perHost: number; total: number };
  now?: () => number;
  /** How often due deliveries and expired leases are looked for, besides on every change. */
  tickMs?: number;
  /** Deliveries started at once; they queue on the client's own concurrency limit. */
  maxRunningDeliveries?: number;
  /** Told every delivery's outcome (for /metrics). */
  onDelivery?: (outcome: "delivered" | "failed" | "removed" | "gone") => void;
}

type Intent = Extract<HubRequest, { mode: "subscribe" | "unsubscribe" }>;

/**
 * The WebSub hub: verifies intents asynchronously (persisted, so a crash loses none), notices changed
 * topics (manifest hash against the last distributed hash, in the store) and works off the store's
 * owed deliveries, starting each as soon as it is due.
 */
export class Hub {
  readonly topics: ReadonlyMap<string, TopicPath>;
  readonly lease: LeasePolicy;
  readonly #options: HubOptions;
  readonly #now: () => number;
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #delivering = new Set<string>();
  readonly #contentCache = new Map<string, TopicContent>();
  #timer: NodeJS.Timeout | undefined;
  #draining = false;
  #stopping = false;
  #wake: (() => void) | undefined;
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

  /** Why a new subscription for this callback would exceed a cap, or undefined. */
  #overCap(callback: string, countPending: boolean): string | undefined {
    const caps = this.#options.caps;
    if (!caps) return undefined;
    const { store } = this.#options;
    const host = new URL(callback).host.toLowerCase();
    const pendingHost = countPending ? store.countSubscribeIntents({ callbackHost: host }) : 0;
    if (store.countSubscriptions({ callbackHost: host }) + pendingHost >= caps.perHost) {
      return `Too many subscriptions for callback host ${host}.`;
    }
    const pendingAll = countPending ? store.countSubscribeIntents() : 0;
    if (store.countSubscriptions() + pendingAll >= caps.total)
      return "The hub takes no new subscriptions at the moment.";
    return undefined;
  }

  /**
   * Accepts a validated subscribe or unsubscribe: checks the caps (pending verifications count),
   * records the intent, and verifies it after the 202 is sent.
   */
  accept(request: Intent): void {
    const { store } = this.#options;
    if (request.mode === "subscribe" && !store.getSubscription(request.topic, request.callback)) {
      const overCap = this.#overCap(request.callback, true);
      if (overCap) throw new HubRequestError(403, overCap);
    }
    const id = store.addIntent({
      mode: request.mode,
      topic: request.topic,
      callback: request.callback,
      leaseSeconds: request.mode === "subscribe" ? request.leaseSeconds : undefined,
      secret: request.mode === "subscribe" ? request.secret : undefined,
    });
    this.#track(this.#verify({ id, ...request }));
  }

  async #verify(intent: Intent & { id: number }): Promise<void> {
    const { store, logger } = this.#options;
    const confirmed = await verifyIntent(this.#options.client, intent);
    this.outcomes[confirmed ? "verified" : "unverified"]++;
    logger.info({ mode: intent.mode, topic: intent.topic, confirmed }, "websub verification");
    // The intent is struck off only after its effect is stored: a crash in between re-verifies it.
    if (!confirmed) {
      store.removeIntent(intent.id);
      return;
    }
    if (intent.mode === "unsubscribe") {
      store.removeSubscription(intent.topic, intent.callback);
      store.removeIntent(intent.id);
      return;
    }
    // Checked again now: verifications that were pending together must not overshoot the caps.
    if (!store.getSubscription(intent.topic, intent.callback)) {
      const overCap = this.#overCap(intent.callback, false);
      if (overCap) {
        logger.warn({ topic: intent.topic, reason: overCap }, "websub subscription not activated");
        store.removeIntent(intent.id);
        return;
      }
    }
    store.upsertSubscription({
      topic: intent.topic,
      callback: intent.callback,
      secret: intent.secret,
      leaseSeconds: intent.leaseSeconds,
      expiresAt: this.#now() + intent.leaseSeconds * 1000,
    });
    store.removeIntent(intent.id);
  }

  /** Verifies intents that were accepted before a crash or restart. */
  #resumeIntents(): void {
    for (const stored of this.#options.store.pendingIntents()) {
      const path = this.topics.get(stored.topic);
      if (!path) {
        this.#options.store.removeIntent(stored.id);
        continue;
      }
      this.#track(this.#verify(this.#fromStored(stored, path)));
    }
  }

  #fromStored(stored: PendingIntent, path: TopicPath): Intent & { id: number } {
    const base = { id: stored.id, topic: stored.topic, path, callback: stored.callback };
    return stored.mode === "unsubscribe"
      ? { ...base, mode: "unsubscribe" }
      : {
          ...base,
          mode: "subscribe",
          leaseSeconds: stored.leaseSeconds ?? this.lease.defaultSeconds,
          secret: stored.secret,
        };
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

  /** Makes sure due deliveries are being worked off (wakes the running drain, or starts one). */
  kick(): void {
    if (this.#stopping) return;
    if (this.#draining) {
      this.#wake?.();
      return;
    }
    this.#draining = true;
    this.#track(this.#drain()).finally(() => {
      this.#draining = false;
    });
  }

  /**
   * Starts every due delivery as soon as it is due, up to `maxRunningDeliveries` at once (requests
   * themselves queue on the client's concurrency limit), so one slow subscriber holds back no one.
   */
  async #drain(): Promise<void> {
    const { store, client, retry, urls } = this.#options;
    const maxRunning = this.#options.maxRunningDeliveries ?? 256;
    const running = new Set<Promise<void>>();
    for (;;) {
      // Stopping: deliveries under way finish, none starts (what is owed stays in the store).
      const room = this.#stopping ? 0 : maxRunning - running.size;
      const due =
        room > 0
          ? store
              .dueDeliveries(this.#now(), room + this.#delivering.size)
              .filter((d) => !this.#delivering.has(`${d.topic} ${d.callback}`))
              .slice(0, room)
          : [];
      for (const pending of due) {
        const key = `${pending.topic} ${pending.callback}`;
        this.#delivering.add(key);
        const run = this.#track(
          deliver(
            {
              store,
              client,
              retry,
              hubUrl: urls.hub,
              content: (topic) => this.#content(topic),
              now: this.#now,
              onOutcome: (outcome) => {
                this.outcomes[outcome]++;
                this.#options.onDelivery?.(outcome);
              },
            },
            pending,
          ),
        ).finally(() => {
          this.#delivering.delete(key);
          running.delete(run);
        });
        running.add(run);
      }
      if (running.size === 0) return;
      const woken = new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      await Promise.race([woken, ...running]);
      this.#wake = undefined;
    }
  }

  /** Resumes pending verifications and deliveries, then sweeps periodically for leases and retries. */
  start(): void {
    this.#resumeIntents();
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
    this.#stopping = true;
    this.#wake?.();
    await this.idle();
  }
}
