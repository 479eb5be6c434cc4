import { randomUUID } from "node:crypto";
import { callbackHost } from "@riverbend/shared/websub/callback-url.ts";
import { Batch } from "../../database/batch.ts";
import type { Postgres, Rows } from "../../database/postgres.ts";
import type {
  ClaimedDelivery,
  HubStore,
  OverCap,
  OverPending,
  PendingCaps,
  PendingIntent,
  Subscription,
  SubscriptionCaps,
} from "./hub-store.ts";
import { optional, toIntent, toSubscription } from "./rows.ts";

/** Channel on which a replica that recorded a change wakes the others. */
export const WORK_CHANNEL = "hub_work";
/** Serialises the subscription-cap checks of all replicas (advisory lock key). */
const CAPS_LOCK = 7_311_402_520;

/**
 * SQL `WHEN` clauses naming the subscription cap one more subscription to `$.topic` for `$.callback`
 * would exceed ('host' or 'total'), none for a renewal or when `$.perHost` is NULL (no caps); with
 * `countPending`, subscribe intents still being verified count as subscriptions. Subscriptions are
 * read from the counts a trigger keeps (migrations.ts), not counted.
 */
function capClauses(
  $: { topic: string; callback: string; host: string; perHost: string; total: string },
  countPending: boolean,
): string {
  const pendingForHost = countPending
    ? ` + (SELECT COUNT(*) FROM hub_intents WHERE mode = 'subscribe' AND callback_host = ${$.host})`
    : "";
  const pendingTotal = countPending ? " + (SELECT COUNT(*) FROM hub_intents WHERE mode = 'subscribe')" : "";
  const subscriptions = (scope: string) =>
    `COALESCE((SELECT subscriptions FROM hub_subscription_counts WHERE scope = ${scope}), 0)`;
  return `WHEN ${$.perHost}::bigint IS NULL
             OR EXISTS (SELECT 1 FROM hub_subscriptions WHERE topic = ${$.topic} AND callback = ${$.callback}) THEN NULL
           WHEN ${subscriptions($.host)}${pendingForHost} >= ${$.perHost}::bigint THEN 'host'
           WHEN ${subscriptions("''")}${pendingTotal} >= ${$.total}::bigint THEN 'total'`;
}

/** The cap a statement's `over` column names, if any. */
function verdictOf(over: unknown): OverCap | OverPending | undefined {
  switch (over) {
    case "pending client":
      return { overPending: "client" };
    case "pending host":
      return { overPending: "host" };
    case "pending total":
      return { overPending: "total" };
    case "host":
    case "total":
      return { overCap: over };
    default:
      return undefined;
  }
}

/**
 * The hub's store on PostgreSQL, shared by any number of sidecar replicas: deliveries are claimed
 * with `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`), a change wakes the other replicas
 * through NOTIFY, and the subscription caps are checked under an advisory lock.
 */
export class PostgresHubStore implements HubStore {
  readonly #db: Postgres;

  constructor(db: Postgres) {
    this.#db = db;
  }

  async getSubscription(topic: string, callback: string): Promise<Subscription | undefined> {
    const [row] = await this.#db.query("SELECT * FROM hub_subscriptions WHERE topic = $1 AND callback = $2", [
      topic,
      callback,
    ]);
    return row ? toSubscription(row) : undefined;
  }

  async removeSubscription(topic: string, callback: string): Promise<boolean> {
    const rows = await this.#db.query("DELETE FROM hub_subscriptions WHERE topic = $1 AND callback = $2 RETURNING 1", [
      topic,
      callback,
    ]);
    return rows.length > 0;
  }

  async countSubscriptions(filter: { callbackHost?: string; topic?: string } = {}): Promise<number> {
    const [row] =
      filter.topic !== undefined
        ? await this.#db.query("SELECT COUNT(*) AS n FROM hub_subscriptions WHERE topic = $1", [filter.topic])
        : filter.callbackHost !== undefined
          ? await this.#db.query("SELECT COUNT(*) AS n FROM hub_subscriptions WHERE callback_host = $1", [
              filter.callbackHost,
            ])
          : await this.#db.query("SELECT COUNT(*) AS n FROM hub_subscriptions");
    return Number(row?.n ?? 0);
  }

  async purgeExpired(now: number): Promise<number> {
    return (await this.#db.query("DELETE FROM hub_subscriptions WHERE expires_at <= $1 RETURNING 1", [now])).length;
  }

  async distributedHash(topic: string): Promise<string | undefined> {
    const [row] = await this.#db.query("SELECT distributed_sha256 FROM hub_topics WHERE topic = $1", [topic]);
    return optional(row?.distributed_sha256);
  }

  async markChanged(topic: string, sha256: string, now: number): Promise<number | undefined> {
    return this.#db.transaction(async (query) => {
      // Replicas noticing the same change race here: the row lock lets exactly one of them record it.
      const recorded = await query(
        `INSERT INTO hub_topics AS t (topic, distributed_sha256) VALUES ($1, $2)
         ON CONFLICT (topic) DO UPDATE SET distributed_sha256 = excluded.distributed_sha256
         WHERE t.distributed_sha256 <> excluded.distributed_sha256
         RETURNING 1`,
        [topic, sha256],
      );
      if (recorded.length === 0) return undefined;
      const owed = await query(
        `INSERT INTO hub_deliveries (topic, callback, sha256, due_at)
         SELECT topic, callback, $2, $3 FROM hub_subscriptions WHERE topic = $1 AND expires_at > $3
         ON CONFLICT (topic, callback) DO UPDATE SET sha256 = excluded.sha256, due_at = excluded.due_at
         RETURNING 1`,
        [topic, sha256, now],
      );
      await query("SELECT pg_notify($1, $2)", [WORK_CHANNEL, topic]);
      return owed.length;
    });
  }

  async claimDeliveries(options: {
    now: number;
    claimUntil: number;
    limit: number;
    serving: ReadonlyMap<string, string>;
  }): Promise<ClaimedDelivery[]> {
    const claim = randomUUID();
    const rows = await this.#db.query(
      `WITH due AS (
         SELECT topic, callback FROM hub_deliveries
         WHERE due_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
           AND sha256 = ($3::jsonb ->> topic)
         ORDER BY due_at LIMIT $4
         FOR UPDATE SKIP LOCKED)
       UPDATE hub_deliveries d SET claim = $5, claimed_until = $2
       FROM due, hub_subscriptions s
       WHERE d.topic = due.topic AND d.callback = due.callback AND s.topic = d.topic AND s.callback = d.callback
       RETURNING d.topic, d.callback, d.sha256, d.due_at, s.secret, s.expires_at, s.failures`,
      [options.now, options.claimUntil, JSON.stringify(Object.fromEntries(options.serving)), options.limit, claim],
    );
    return rows
      .map((row) => ({
        topic: String(row.topic),
        callback: String(row.callback),
        sha256: String(row.sha256),
        dueAt: Number(row.due_at),
        claim,
        secret: optional(row.secret),
        expiresAt: Number(row.expires_at),
        failures: Number(row.failures),
      }))
      .sort((a, b) => a.dueAt - b.dueAt);
  }

  deliverySucceeded(d: ClaimedDelivery, sentSha: string): Promise<void> {
    return this.#successes.add({ delivery: d, sentSha });
  }

  /**
   * Successes recorded together: one statement for all that finished within a few milliseconds
   * (bench:hub's 10,000-subscriber fan-out spent its database time on one statement per delivery).
   * It resets the counts and completes each delivery still for what was sent, or else (a newer
   * change arrived meanwhile) gives it back for the newer content.
   */
  readonly #successes = new Batch<{ delivery: ClaimedDelivery; sentSha: string }>(async (items) => {
    await this.#db.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS i (topic, callback, sha256, claim)),
       reset AS (
         UPDATE hub_subscriptions s SET failures = 0 FROM input i
         WHERE s.topic = i.topic AND s.callback = i.callback AND s.failures <> 0),
       done AS (
         DELETE FROM hub_deliveries d USING input i
         WHERE d.topic = i.topic AND d.callback = i.callback AND d.sha256 = i.sha256
         RETURNING d.topic, d.callback)
       UPDATE hub_deliveries d SET claim = NULL, claimed_until = NULL FROM input i
       WHERE d.topic = i.topic AND d.callback = i.callback AND d.claim = i.claim
         AND NOT EXISTS (SELECT 1 FROM done WHERE done.topic = d.topic AND done.callback = d.callback)`,
      [
        items.map((item) => item.delivery.topic),
        items.map((item) => item.delivery.callback),
        items.map((item) => item.sentSha),
        items.map((item) => item.delivery.claim),
      ],
    );
  });

  async deliveryFailed(d: ClaimedDelivery, retryAt: number): Promise<number> {
    const [row] = await this.#db.query(
      `WITH counted AS (
         UPDATE hub_subscriptions SET failures = failures + 1 WHERE topic = $1 AND callback = $2 RETURNING failures),
       released AS (
         UPDATE hub_deliveries SET claim = NULL, claimed_until = NULL, due_at = $3
         WHERE topic = $1 AND callback = $2 AND claim = $4)
       SELECT failures FROM counted`,
      [d.topic, d.callback, retryAt, d.claim],
    );
    return Number(row?.failures ?? 0);
  }

  async dropDelivery(d: ClaimedDelivery): Promise<void> {
    await this.#db.query(
      `WITH done AS (
         DELETE FROM hub_deliveries WHERE topic = $1 AND callback = $2 AND sha256 = $3 RETURNING 1)
       UPDATE hub_deliveries SET claim = NULL, claimed_until = NULL
       WHERE topic = $1 AND callback = $2 AND claim = $4 AND NOT EXISTS (SELECT 1 FROM done)`,
      [d.topic, d.callback, d.sha256, d.claim],
    );
  }

  async nextDueAt(after: number): Promise<number | undefined> {
    const [row] = await this.#db.query(
      "SELECT MIN(due_at) AS due FROM hub_deliveries WHERE due_at > $1 AND claimed_until IS NULL",
      [after],
    );
    return row?.due === null || row?.due === undefined ? undefined : Number(row.due);
  }

  async pendingCount(): Promise<number> {
    const [row] = await this.#db.query("SELECT COUNT(*) AS n FROM hub_deliveries");
    return Number(row?.n ?? 0);
  }

  async addIntent(
    intent: Omit<PendingIntent, "id">,
    options: {
      claimUntil: number;
      client: string;
      caps: SubscriptionCaps | undefined;
      pending: PendingCaps | undefined;
    },
  ): Promise<{ id: number } | OverCap | OverPending> {
    const caps = intent.mode === "subscribe" ? options.caps : undefined;
    const sql = `WITH verdict AS (
         SELECT CASE
           WHEN (SELECT COUNT(*) FROM hub_intents WHERE client = $5) >= $9::bigint THEN 'pending client'
           WHEN (SELECT COUNT(*) FROM hub_intents WHERE callback_host = $4) >= $10::bigint THEN 'pending host'
           WHEN (SELECT COUNT(*) FROM hub_intents) >= $11::bigint THEN 'pending total'
           ${capClauses({ topic: "$2", callback: "$3", host: "$4", perHost: "$12", total: "$13" }, true)}
         END AS over),
       added AS (
         INSERT INTO hub_intents (mode, topic, callback, callback_host, client, lease_seconds, secret, claimed_until)
         SELECT $1, $2, $3, $4, $5, $6::integer, $7, $8::bigint FROM verdict WHERE over IS NULL
         RETURNING id)
       SELECT (SELECT over FROM verdict) AS over, (SELECT id FROM added) AS id`;
    const params = [
      intent.mode,
      intent.topic,
      intent.callback,
      callbackHost(intent.callback),
      options.client,
      intent.leaseSeconds ?? null,
      intent.secret ?? null,
      options.claimUntil,
      options.pending?.perClient ?? null,
      options.pending?.perHost ?? null,
      options.pending?.total ?? null,
      caps?.perHost ?? null,
      caps?.total ?? null,
    ];
    const [row] = options.pending || caps ? await this.#underCapsLock(sql, params) : await this.#db.query(sql, params);
    return verdictOf(row?.over) ?? { id: Number(row?.id) };
  }

  /**
   * Runs one statement after taking the caps lock, in a transaction: the lock is held over that
   * statement and the COMMIT only, so each check and what it guards cost a single round trip under
   * it (the subscribe throughput of all replicas is bound by how long the lock is held).
   */
  #underCapsLock(sql: string, params: readonly unknown[]): Promise<Rows> {
    return this.#db.transaction(async (query) => {
      await query("SELECT pg_advisory_xact_lock($1)", [CAPS_LOCK]);
      return query(sql, params);
    });
  }

  async claimIntents(now: number, claimUntil: number, limit: number): Promise<PendingIntent[]> {
    const rows = await this.#db.query(
      `WITH lapsed AS (
         SELECT id FROM hub_intents WHERE claimed_until IS NULL OR claimed_until <= $1
         ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE hub_intents i SET claimed_until = $2 FROM lapsed WHERE i.id = lapsed.id
       RETURNING i.*`,
      [now, claimUntil, limit],
    );
    return rows.map(toIntent).sort((a, b) => a.id - b.id);
  }

  async confirmIntent(
    intent: PendingIntent,
    expiresAt: number,
    caps: SubscriptionCaps | undefined,
  ): Promise<"applied" | OverCap> {
    if (intent.mode === "unsubscribe") {
      await this.#db.transaction(async (query) => {
        await query("DELETE FROM hub_intents WHERE id = $1", [intent.id]);
        await query("DELETE FROM hub_subscriptions WHERE topic = $1 AND callback = $2", [
          intent.topic,
          intent.callback,
        ]);
      });
      return "applied";
    }
    const sql = `WITH verified AS (DELETE FROM hub_intents WHERE id = $7),
       verdict AS (
         SELECT CASE
           ${capClauses({ topic: "$1", callback: "$2", host: "$3", perHost: "$8", total: "$9" }, false)}
         END AS over),
       added AS (
         INSERT INTO hub_subscriptions (topic, callback, callback_host, secret, lease_seconds, expires_at, failures)
         SELECT $1, $2, $3, $4, $5::integer, $6::bigint, 0 FROM verdict WHERE over IS NULL
         ON CONFLICT (topic, callback) DO UPDATE SET
           secret = excluded.secret, lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at)
       SELECT over FROM verdict`;
    const params = [
      intent.topic,
      intent.callback,
      callbackHost(intent.callback),
      intent.secret ?? null,
      intent.leaseSeconds ?? 0,
      expiresAt,
      intent.id,
      caps?.perHost ?? null,
      caps?.total ?? null,
    ];
    const [row] = caps ? await this.#underCapsLock(sql, params) : await this.#db.query(sql, params);
    const over = verdictOf(row?.over);
    return over && "overCap" in over ? over : "applied";
  }

  async dropIntent(id: number): Promise<void> {
    await this.#db.query("DELETE FROM hub_intents WHERE id = $1", [id]);
  }

  async countSubscribeIntents(filter: { callbackHost?: string } = {}): Promise<number> {
    const [row] =
      filter.callbackHost === undefined
        ? await this.#db.query("SELECT COUNT(*) AS n FROM hub_intents WHERE mode = 'subscribe'")
        : await this.#db.query(
            "SELECT COUNT(*) AS n FROM hub_intents WHERE mode = 'subscribe' AND callback_host = $1",
            [filter.callbackHost],
          );
    return Number(row?.n ?? 0);
  }

  onWork(listener: () => void): void {
    // If the LISTEN cannot be sent now, the reconnection sends it with every registered channel.
    this.#db.listen(WORK_CHANNEL, listener).catch(() => undefined);
    // Notifications sent while this replica was disconnected are lost: look for work on reconnect.
    this.#db.onReconnect(listener);
  }

  problem(): string | undefined {
    return this.#db.problem();
  }

  async close(): Promise<void> {
    // The connection is the process's (shared with the MCP session revocations); main.ts closes it.
  }
}
