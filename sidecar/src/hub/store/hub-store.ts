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

/** A subscribe or unsubscribe request answered 202 and not verified yet. */
export interface PendingIntent {
  id: number;
  mode: "subscribe" | "unsubscribe";
  topic: string;
  callback: string;
  leaseSeconds: number | undefined;
  secret: string | undefined;
}

/**
 * Everything the hub persists. No module outside the store knows which database is behind it, so a
 * shared server database can replace SQLite when several sidecar replicas run.
 */
export interface HubStore {
  /** Inserts or replaces the subscription (a verified re-subscribe replaces lease and secret). */
  upsertSubscription(subscription: Omit<Subscription, "failures">): void;
  removeSubscription(topic: string, callback: string): boolean;
  getSubscription(topic: string, callback: string): Subscription | undefined;
  countSubscriptions(filter?: { callbackHost?: string; topic?: string }): number;
  /** Records a failed attempt; returns the new count of consecutive failures. */
  recordFailure(topic: string, callback: string): number;
  recordSuccess(topic: string, callback: string): void;
  /** Deletes subscriptions (and what they were owed) whose lease ended; returns how many. */
  purgeExpired(now: number): number;

  /** Hash of a topic's content as last distributed, if any. */
  distributedHash(topic: string): string | undefined;
  /**
   * In one transaction: records `sha256` as distributed for `topic` and owes a delivery to every
   * active subscriber of it. A crash either keeps the old hash (and redoes this) or keeps both.
   */
  markChanged(topic: string, sha256: string, now: number): number;
  /** Deliveries due at `now`, oldest first. */
  dueDeliveries(now: number, limit: number): PendingDelivery[];
  /** Removes the delivery if it is still for `sha256` (a newer change keeps it owed). */
  completeDelivery(topic: string, callback: string, sha256: string): void;
  postponeDelivery(topic: string, callback: string, dueAt: number): void;
  pendingCount(): number;

  addIntent(intent: Omit<PendingIntent, "id">): number;
  removeIntent(id: number): void;
  pendingIntents(): PendingIntent[];
  /** Pending subscribe intents for a callback host (or in all), for the subscription caps. */
  countSubscribeIntents(filter?: { callbackHost?: string }): number;
  close(): void;
}
