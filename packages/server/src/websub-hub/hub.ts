import type { TopicPath } from "@riverbend/shared/registry/documents.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { callbackHost } from "@riverbend/shared/websub/callback-url.ts";
import { type HubRequest, HubRequestError, type LeasePolicy } from "@riverbend/shared/websub/hub-request.ts";
import { topicUrls } from "@riverbend/shared/websub/topics.ts";
import type { Logger } from "pino";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { type TopicContent, topicContent } from "./content.ts";
import { DeliveryLoop, type DeliveryOutcome } from "./delivery-loop.ts";
import type { RetryPolicy } from "./distributor.ts";
import type { GuardedClient } from "./outbound/guarded-client.ts";
import type {
  HubStore,
  OverCap,
  OverPending,
  PendingCaps,
  PendingIntent,
  SubscriptionCaps,
} from "./store/hub-store.ts";
import { verifyIntent } from "./verifier.ts";

export interface HubOptions {
  store: HubStore;
  bundles: BundleStore;
  client: GuardedClient;
  urls: SiteUrls;
  lease: LeasePolicy;
  retry: RetryPolicy;
  logger: Logger;
  /** Subscriptions per callback host and in all, pending verifications included (global). */
  caps?: SubscriptionCaps;
  /** Pending verifications (both modes) per client address, per callback host and in all (global). */
  pendingCaps?: PendingCaps;
  /** Seconds a client refused by a pending cap is asked to wait: about one verification's timeout. */
  pendingRetryAfterSeconds?: number;
  now?: () => number;
  /** How often lapsed claims, due retries and expired leases are looked for, besides on every change. */
  tickMs?: number;
  /** Deliveries claimed and running at once (each holds one of the client's connections). */
  maxRunningDeliveries?: number;
  /**
   * How long a claimed delivery or verification is this replica's: past it, another replica takes it
   * over. Longer than one outbound request can take (the client's timeout), so only a crash lets it lapse.
   */
  claimMs?: number;
  /** Told every delivery's outcome (for /metrics). */
  onDelivery?: (outcome: DeliveryOutcome) => void;
}

type Intent = Extract<HubRequest, { mode: "subscribe" | "unsubscribe" }>;

const overCapMessage = (callback: string, over: OverCap) =>
  over.overCap === "host"
    ? `Too many subscriptions for callback host ${callbackHost(callback)}.`
    : "The hub takes no new subscriptions at the moment.";

/** A pending-verification cap: 429 for one client or callback host, 503 when the hub as a whole is full. */
function overPendingError(callback: string, over: OverPending, retryAfterSeconds: number): HubRequestError {
  const [status, message] =
    over.overPending === "client"
      ? [429, "Too many verifications pending for requests from this address"]
      : over.overPending === "host"
        ? [429, `Too many verifications pending for callback host ${callbackHost(callback)}`]
        : [503, "Too many verifications pending at this hub"];
  return new HubRequestError(status, `${message}; retry after ${retryAfterSeconds} s.`, retryAfterSeconds);
}

/**
 * The WebSub hub: verifies intents asynchronously (persisted and claimed, so a crash loses none and
 * another replica takes them over), notices changed topics (content hash against the store's last
 * distributed hash) and works off the owed deliveries with every other replica on the same store.
 */
export class Hub {
  readonly topics: ReadonlyMap<string, TopicPath>;
  readonly lease: LeasePolicy;
  readonly #options: HubOptions;
  readonly #now: () => number;
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #contentCache = new Map<string, TopicContent>();
  readonly #deliveries: DeliveryLoop;
  #detecting: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  readonly outcomes = { delivered: 0, failed: 0, removed: 0, gone: 0, verified: 0, unverified: 0 };

  constructor(options: HubOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.topics = topicUrls(options.urls);
    this.lease = options.lease;
    this.#deliveries = new DeliveryLoop({
      store: options.store,
      client: options.client,
      retry: options.retry,
      hubUrl: options.urls.hub,
      logger: options.logger,
      now: this.#now,
      claimMs: this.#claimMs,
      maxRunning: options.maxRunningDeliveries ?? 32,
      content: (topic) => this.#content(topic),
      serving: () => this.#serving(),
      track: (work) => this.#track(work),
      onOutcome: (outcome) => {
        this.outcomes[outcome]++;
        options.onDelivery?.(outcome);
      },
    });
  }

  get #claimMs(): number {
    return this.#options.claimMs ?? 30_000;
  }

  /**
   * An accepted intent is verified at once, but its request may first wait for one of the client's
   * verification connections behind other verifications: its claim allows for that.
   */
  get #intentClaimMs(): number {
    return 5 * this.#claimMs;
  }

  get store(): HubStore {
    return this.#options.store;
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inFlight.add(promise);
    void promise.finally(() => this.#inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  /** Resolves when no verification or delivery is in progress or due within a tick (tests, shutdown). */
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

  /**
   * Accepts a validated subscribe or unsubscribe from `client` (its address): records the intent
   * (refused past a pending-verification cap, or when a new subscription would exceed a cap) and
   * verifies it after the 202 is sent.
   */
  async accept(request: Intent, client: string): Promise<void> {
    const intent = {
      mode: request.mode,
      topic: request.topic,
      callback: request.callback,
      leaseSeconds: request.mode === "subscribe" ? request.leaseSeconds : undefined,
      secret: request.mode === "subscribe" ? request.secret : undefined,
    };
    const added = await this.store.addIntent(intent, {
      claimUntil: this.#now() + this.#intentClaimMs,
      client,
      caps: this.#options.caps,
      pending: this.#options.pendingCaps,
    });
    if ("overPending" in added) {
      throw overPendingError(request.callback, added, this.#options.pendingRetryAfterSeconds ?? 10);
    }
    if ("overCap" in added) throw new HubRequestError(403, overCapMessage(request.callback, added));
    this.#track(this.#verify({ id: added.id, ...intent }));
  }

  async #verify(intent: PendingIntent): Promise<void> {
    const { logger } = this.#options;
    const path = this.topics.get(intent.topic);
    const host = new URL(intent.callback).host;
    try {
      if (!path) {
        logger.warn(
          { mode: intent.mode, topic: intent.topic, host, reason: "the topic is no longer served" },
          "websub verification failed",
        );
        await this.store.dropIntent(intent.id);
        return;
      }
      const leaseSeconds = intent.leaseSeconds ?? this.lease.defaultSeconds;
      const request: Intent =
        intent.mode === "unsubscribe"
          ? { mode: "unsubscribe", topic: intent.topic, path, callback: intent.callback }
          : {
              mode: "subscribe",
              topic: intent.topic,
              path,
              callback: intent.callback,
              leaseSeconds,
              secret: intent.secret,
            };
      const outcome = await verifyIntent(this.#options.client, request);
      this.outcomes[outcome.confirmed ? "verified" : "unverified"]++;
      // The intent is struck off only together with its effect: a crash in between re-verifies it.
      if (!outcome.confirmed) {
        logger.warn(
          { mode: intent.mode, topic: intent.topic, host, reason: outcome.reason },
          "websub verification failed",
        );
        await this.store.dropIntent(intent.id);
        return;
      }
      logger.info({ mode: intent.mode, topic: intent.topic, host }, "websub verification");
      const applied = await this.store.confirmIntent(
        { ...intent, leaseSeconds },
        this.#now() + leaseSeconds * 1000,
        this.#options.caps,
      );
      if (applied !== "applied") {
        logger.warn(
          { topic: intent.topic, host, reason: overCapMessage(intent.callback, applied) },
          "websub subscription not activated",
        );
      }
    } catch (error) {
      // The store went away: the claim lapses and some replica verifies the intent again later.
      logger.warn({ err: error, topic: intent.topic, host }, "websub verification not recorded");
    }
  }

  /** Verifies intents whose verifier crashed (their claim lapsed), on any replica. */
  async #resumeIntents(): Promise<void> {
    const now = this.#now();
    for (const intent of await this.store.claimIntents(now, now + this.#intentClaimMs, 100)) {
      this.#track(this.#verify(intent));
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

  /** Topic URL to the hash of the content this replica serves. */
  #serving(): Map<string, string> {
    const entries = this.#options.bundles.current.bundle.entries;
    const serving = new Map<string, string>();
    for (const [topic, path] of this.topics) {
      const sha = entries.get(path)?.sha256;
      if (sha) serving.set(topic, sha);
    }
    return serving;
  }

  /**
   * Compares every topic's hash with the last distributed one and owes deliveries for those that
   * differ; returns the topics this call recorded. Calls run one after another.
   */
  detectChanges(): Promise<string[]> {
    const run = this.#detecting.then(() => this.#detectOnce());
    this.#detecting = run.catch(() => undefined);
    return this.#track(run);
  }

  async #detectOnce(): Promise<string[]> {
    const { logger } = this.#options;
    const changed: string[] = [];
    for (const [topic, sha] of this.#serving()) {
      const owed = await this.store.markChanged(topic, sha, this.#now());
      if (owed === undefined) continue;
      logger.info({ topic, sha256: sha, subscribers: owed }, "websub topic changed");
      changed.push(topic);
    }
    if (changed.length > 0) this.kick();
    return changed;
  }

  /** Makes sure due deliveries are being worked off. */
  kick(): void {
    this.#deliveries.kick();
  }

  #sweep(): void {
    const { store, logger } = this.#options;
    // While the database is away there is nothing to sweep; its return wakes the hub (onWork).
    if (store.problem()) return;
    this.#track(
      (async () => {
        await store.purgeExpired(this.#now());
        await this.#resumeIntents();
        this.kick();
      })().catch((error) => logger.warn({ err: error }, "websub sweep failed")),
    );
  }

  /**
   * Resumes pending verifications and deliveries, wakes when another replica records work, then
   * sweeps periodically for lapsed claims, due retries and ended leases.
   */
  start(): void {
    this.store.onWork(() => {
      // Another replica saw a new build first: load it too, so this one can help deliver it.
      this.#options.bundles.reload();
      this.kick();
    });
    this.#track(this.detectChanges().catch((error) => this.#options.logger.warn({ err: error }, "websub start")));
    this.#sweep();
    this.#timer = setInterval(() => this.#sweep(), this.#options.tickMs ?? 1000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#deliveries.stop();
    await this.idle();
  }
}
