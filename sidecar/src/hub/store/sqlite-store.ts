import { mkdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { HubStore, PendingDelivery, PendingIntent, Subscription } from "./hub-store.ts";
import { MIGRATIONS } from "./migrations.ts";

type Row = Record<string, unknown>;

function toSubscription(row: Row): Subscription {
  return {
    topic: String(row.topic),
    callback: String(row.callback),
    secret: row.secret === null ? undefined : String(row.secret),
    leaseSeconds: Number(row.lease_seconds),
    expiresAt: Number(row.expires_at),
    failures: Number(row.failures),
  };
}

/** The hub's embedded store: one SQLite file (node:sqlite), WAL mode, migrated at open. */
export class SqliteHubStore implements HubStore {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(file: string) {
    if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
    this.#db = new DatabaseSync(file);
    this.#db.exec(
      "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
    );
    this.#migrate();
  }

  #migrate(): void {
    this.#db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY) STRICT");
    const row = this.#db.prepare("SELECT MAX(version) AS version FROM schema_migrations").get() as Row | undefined;
    const current = Number(row?.version ?? 0);
    MIGRATIONS.forEach((sql, index) => {
      const version = index + 1;
      if (version <= current) return;
      this.#transaction(() => {
        this.#db.exec(sql);
        this.#db.prepare("INSERT INTO schema_migrations (version) VALUES (?)").run(version);
      });
    });
  }

  #sql(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #transaction<T>(work: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      this.#db.exec("COMMIT");
      return result;
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  upsertSubscription(s: Omit<Subscription, "failures">): void {
    this.#sql(
      `INSERT INTO subscriptions (topic, callback, callback_host, secret, lease_seconds, expires_at, failures)
       VALUES (?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT (topic, callback) DO UPDATE SET
         secret = excluded.secret, lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at`,
    ).run(s.topic, s.callback, new URL(s.callback).host, s.secret ?? null, s.leaseSeconds, s.expiresAt);
  }

  removeSubscription(topic: string, callback: string): boolean {
    return (
      Number(this.#sql("DELETE FROM subscriptions WHERE topic = ? AND callback = ?").run(topic, callback).changes) > 0
    );
  }

  getSubscription(topic: string, callback: string): Subscription | undefined {
    const row = this.#sql("SELECT * FROM subscriptions WHERE topic = ? AND callback = ?").get(topic, callback) as
      | Row
      | undefined;
    return row ? toSubscription(row) : undefined;
  }

  countSubscriptions(filter: { callbackHost?: string; topic?: string } = {}): number {
    const row = (
      filter.topic !== undefined
        ? this.#sql("SELECT COUNT(*) AS n FROM subscriptions WHERE topic = ?").get(filter.topic)
        : filter.callbackHost === undefined
          ? this.#sql("SELECT COUNT(*) AS n FROM subscriptions").get()
          : this.#sql("SELECT COUNT(*) AS n FROM subscriptions WHERE callback_host = ?").get(filter.callbackHost)
    ) as Row;
    return Number(row.n);
  }

  recordFailure(topic: string, callback: string): number {
    const row = this.#sql(
      "UPDATE subscriptions SET failures = failures + 1 WHERE topic = ? AND callback = ? RETURNING failures",
    ).get(topic, callback) as Row | undefined;
    return Number(row?.failures ?? 0);
  }

  recordSuccess(topic: string, callback: string): void {
    this.#sql("UPDATE subscriptions SET failures = 0 WHERE topic = ? AND callback = ?").run(topic, callback);
  }

  purgeExpired(now: number): number {
    return Number(this.#sql("DELETE FROM subscriptions WHERE expires_at <= ?").run(now).changes);
  }

  distributedHash(topic: string): string | undefined {
    const row = this.#sql("SELECT distributed_sha256 FROM topics WHERE topic = ?").get(topic) as Row | undefined;
    return row ? String(row.distributed_sha256) : undefined;
  }

  markChanged(topic: string, sha256: string, now: number): number {
    return this.#transaction(() => {
      this.#sql(
        `INSERT INTO topics (topic, distributed_sha256) VALUES (?, ?)
         ON CONFLICT (topic) DO UPDATE SET distributed_sha256 = excluded.distributed_sha256`,
      ).run(topic, sha256);
      const result = this.#sql(
        `INSERT INTO deliveries (topic, callback, sha256, due_at)
         SELECT topic, callback, ?, ? FROM subscriptions WHERE topic = ? AND expires_at > ?
         ON CONFLICT (topic, callback) DO UPDATE SET sha256 = excluded.sha256, due_at = excluded.due_at`,
      ).run(sha256, now, topic, now);
      return Number(result.changes);
    });
  }

  dueDeliveries(now: number, limit: number): PendingDelivery[] {
    const rows = this.#sql(
      "SELECT topic, callback, sha256, due_at FROM deliveries WHERE due_at <= ? ORDER BY due_at LIMIT ?",
    ).all(now, limit) as Row[];
    return rows.map((row) => ({
      topic: String(row.topic),
      callback: String(row.callback),
      sha256: String(row.sha256),
      dueAt: Number(row.due_at),
    }));
  }

  completeDelivery(topic: string, callback: string, sha256: string): void {
    this.#sql("DELETE FROM deliveries WHERE topic = ? AND callback = ? AND sha256 = ?").run(topic, callback, sha256);
  }

  postponeDelivery(topic: string, callback: string, dueAt: number): void {
    this.#sql("UPDATE deliveries SET due_at = ? WHERE topic = ? AND callback = ?").run(dueAt, topic, callback);
  }

  pendingCount(): number {
    return Number((this.#sql("SELECT COUNT(*) AS n FROM deliveries").get() as Row).n);
  }

  addIntent(intent: Omit<PendingIntent, "id">): number {
    const row = this.#sql(
      `INSERT INTO intents (mode, topic, callback, callback_host, lease_seconds, secret)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      intent.mode,
      intent.topic,
      intent.callback,
      new URL(intent.callback).host,
      intent.leaseSeconds ?? null,
      intent.secret ?? null,
    ) as Row;
    return Number(row.id);
  }

  removeIntent(id: number): void {
    this.#sql("DELETE FROM intents WHERE id = ?").run(id);
  }

  pendingIntents(): PendingIntent[] {
    return (this.#sql("SELECT * FROM intents ORDER BY id").all() as Row[]).map((row) => ({
      id: Number(row.id),
      mode: row.mode === "unsubscribe" ? "unsubscribe" : "subscribe",
      topic: String(row.topic),
      callback: String(row.callback),
      leaseSeconds: row.lease_seconds === null ? undefined : Number(row.lease_seconds),
      secret: row.secret === null ? undefined : String(row.secret),
    }));
  }

  countSubscribeIntents(filter: { callbackHost?: string } = {}): number {
    const row = (
      filter.callbackHost === undefined
        ? this.#sql("SELECT COUNT(*) AS n FROM intents WHERE mode = 'subscribe'").get()
        : this.#sql("SELECT COUNT(*) AS n FROM intents WHERE mode = 'subscribe' AND callback_host = ?").get(
            filter.callbackHost,
          )
    ) as Row;
    return Number(row.n);
  }

  get isOpen(): boolean {
    return this.#db.isOpen;
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }
}
