/** An active subscription: one per (topic, callback). */
export interface Subscription {
  topic: string;
  callback: string;
  secret: string | undefined;
  leaseSeconds: number;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Consecutive failed delivery attempts. */
  failures: number;
}

/** A delivery still owed to a subscriber; one per (topic, callback), so a newer change replaces it. */
export interface PendingDelivery {
  topic: string;
  callback: string;
  /** Content hash that made it due (the newest content is what gets sent). */
  sha256: string;
  dueAt: number;
}

/** A delivery this process claimed, with what it needs to send it (the subscription's secret and lease). */
export interface ClaimedDelivery extends PendingDelivery {
  /** Identifies the claim: only its holder gives the delivery back. */
  claim: string;
  secret: string | undefined;
  expiresAt: number;
  failures: number;
}

/** A subscribe or unsubscribe request answered 202 and not verified yet. */
export interface PendingIntent {
  id: number;
  mode: "subscribe" | "unsubscribe";
  topic: string;
  callback: string;
  leaseSeconds: number | undefined;
  secret: string | undefined;
}

/** Subscriptions per callback host and in all, pending verifications included (global, in the store). */
export interface SubscriptionCaps {
  perHost: number;
  total: number;
}

/** Which cap a new subscription would exceed. */
export type OverCap = { overCap: "host" | "total" };

/**
 * Verifications pending at once (subscribe and unsubscribe intents alike): per requesting client
 * address, per callback host and in all (global, in the store).
 */
export interface PendingCaps {
  perClient: number;
  perHost: number;
  total: number;
}

/** Which pending-verification cap a new intent would exceed. */
export type OverPending = { overPending: "client" | "host" | "total" };

/** The store cannot be reached (database stopped, network cut): the hub answers 503 and retries later. */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

/**
 * Everything the hub persists, shared by every replica that uses the same store. No module outside
 * the store knows which database is behind it: SQLite (one process) or PostgreSQL (any number).
 * Work is claimed for a lease (`claimUntil`, epoch ms): a claim that is not given back by then (the
 * claimer crashed or hangs) becomes claimable again, so every owed delivery is made at least once.
 */
export interface HubStore {
  getSubscription(topic: string, callback: string): Promise<Subscription | undefined>;
  removeSubscription(topic: string, callback: string): Promise<boolean>;
  countSubscriptions(filter?: { callbackHost?: string; topic?: string }): Promise<number>;
  /** Deletes subscriptions (and what they were owed) whose lease ended; returns how many. */
  purgeExpired(now: number): Promise<number>;

  /** Hash of a topic's content as last distributed, if any. */
  distributedHash(topic: string): Promise<string | undefined>;
  /**
   * Atomically: if `sha256` is not the topic's distributed hash yet, records it and owes a delivery to
   * every active subscriber (replacing an older owed one); returns how many, or undefined when the hash
   * was already recorded (another replica noticed the same change first).
   */
  markChanged(topic: string, sha256: string, now: number): Promise<number | undefined>;
  /**
   * Claims up to `limit` due deliveries that nobody holds, for content this process serves
   * (`serving`: topic to hash), oldest first.
   */
  claimDeliveries(options: {
    now: number;
    claimUntil: number;
    limit: number;
    serving: ReadonlyMap<string, string>;
  }): Promise<ClaimedDelivery[]>;
  /** Success: resets the failure count; the delivery is done if still for `sentSha`, else given back. */
  deliverySucceeded(delivery: ClaimedDelivery, sentSha: string): Promise<void>;
  /** A failed attempt: counts it, gives the delivery back due at `retryAt`; returns the new count. */
  deliveryFailed(delivery: ClaimedDelivery, retryAt: number): Promise<number>;
  /** The delivery cannot be made (subscription or topic gone): forgets it if still for its hash. */
  dropDelivery(delivery: ClaimedDelivery): Promise<void>;
  /** When the next unclaimed delivery not due yet at `after` falls due (a retry), if any. */
  nextDueAt(after: number): Promise<number | undefined>;
  pendingCount(): Promise<number>;

  /**
   * Records an intent from `client` (its address), claimed by the caller until `claimUntil`. Refused
   * when it would exceed a `pending` cap, or when a subscribe for a new (topic, callback) would exceed
   * `caps` (checked and recorded atomically across replicas).
   */
  addIntent(
    intent: Omit<PendingIntent, "id">,
    options: {
      claimUntil: number;
      client: string;
      caps: SubscriptionCaps | undefined;
      pending: PendingCaps | undefined;
    },
  ): Promise<{ id: number } | OverCap | OverPending>;
  /** Claims intents whose claim lapsed (their verifier crashed), oldest first. */
  claimIntents(now: number, claimUntil: number, limit: number): Promise<PendingIntent[]>;
  /**
   * Applies a verified intent and strikes it off in one transaction: unsubscribe removes the
   * subscription; subscribe inserts or replaces it unless a new one would now exceed `caps`.
   */
  confirmIntent(
    intent: PendingIntent,
    expiresAt: number,
    caps: SubscriptionCaps | undefined,
  ): Promise<"applied" | OverCap>;
  /** Strikes off an intent whose verification failed. */
  dropIntent(id: number): Promise<void>;
  countSubscribeIntents(filter?: { callbackHost?: string }): Promise<number>;

  /** Calls `listener` when another replica records work (a change), if the store can tell. */
  onWork(listener: () => void): void;
  /** Undefined while the store is usable, otherwise why not (for /readyz). */
  problem(): string | undefined;
  close(): Promise<void>;
}
