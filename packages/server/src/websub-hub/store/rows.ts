import type { PendingIntent, Subscription } from "./hub-store.ts";

/** A result row of either store's driver: column name to value. */
export type Row = Readonly<Record<string, unknown>>;

/** A nullable text column as an optional string. */
export const optional = (value: unknown) => (value === null || value === undefined ? undefined : String(value));

/** A `subscriptions` row (the same columns in SQLite and PostgreSQL). */
export function toSubscription(row: Row): Subscription {
  return {
    topic: String(row.topic),
    callback: String(row.callback),
    secret: optional(row.secret),
    leaseSeconds: Number(row.lease_seconds),
    expiresAt: Number(row.expires_at),
    failures: Number(row.failures),
  };
}

/** An `intents` row (the same columns in SQLite and PostgreSQL). */
export function toIntent(row: Row): PendingIntent {
  return {
    id: Number(row.id),
    mode: row.mode === "unsubscribe" ? "unsubscribe" : "subscribe",
    topic: String(row.topic),
    callback: String(row.callback),
    leaseSeconds: row.lease_seconds === null ? undefined : Number(row.lease_seconds),
    secret: optional(row.secret),
  };
}
