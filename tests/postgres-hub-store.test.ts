/**
 * The hub's PostgreSQL store, as the SQLite one (tests/sqlite-hub-store.test.ts): the migration that
 * re-keys callback hosts of earlier versions (stored as host:port) by host alone, and the caps held by
 * replicas racing on one database. Needs the test
 * server (TEST_DATABASE_URL); the hub's other behaviour runs on it in the vitest project hub-postgres.
 */

import { POSTGRES_MIGRATIONS } from "@riverbend/server/database/migrations.ts";
import { Postgres } from "@riverbend/server/database/postgres.ts";
import { PostgresHubStore } from "@riverbend/server/websub-hub/store/postgres-store.ts";
import pg from "pg";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { databaseUrlFor, dropSchema, hasDatabase } from "./support/test-database.ts";

const KEY = `postgres-hub-store-${process.pid}`;
afterAll(() => dropSchema(KEY));

describe.runIf(hasDatabase)("the hub's PostgreSQL store", () => {
  it("re-keys callback hosts stored as host:port by host alone when it migrates an earlier version's schema", async () => {
    const url = await databaseUrlFor(KEY);
    const earlier = new pg.Client({ connectionString: url });
    await earlier.connect();
    try {
      await earlier.query("CREATE TABLE sidecar_schema_migrations (version INTEGER PRIMARY KEY)");
      await earlier.query(POSTGRES_MIGRATIONS[0] ?? "");
      await earlier.query("INSERT INTO sidecar_schema_migrations (version) VALUES (1)");
      for (const [callback, host] of [
        ["https://a.example:8443/1", "a.example:8443"],
        ["https://a.example:9443/2", "a.example:9443"],
        ["https://a.example/3", "a.example"],
        ["https://[2001:db8::1]:8443/4", "[2001:db8::1]:8443"],
      ]) {
        await earlier.query(
          "INSERT INTO hub_subscriptions (topic, callback, callback_host, lease_seconds, expires_at) VALUES ('t', $1, $2, 1, 9000000000000)",
          [callback, host],
        );
      }
      await earlier.query(
        "INSERT INTO hub_intents (mode, topic, callback, callback_host) VALUES ('unsubscribe', 't', 'https://b.example:1/x', 'b.example:1')",
      );
    } finally {
      await earlier.end();
    }

    const db = await Postgres.connect(url, pino({ level: "silent" }));
    try {
      const store = new PostgresHubStore(db);
      expect(await store.countSubscriptions({ callbackHost: "a.example" })).toBe(3);
      expect(await store.countSubscriptions({ callbackHost: "[2001:db8::1]" })).toBe(1);
      expect(await store.countSubscriptions({ callbackHost: "a.example:8443" })).toBe(0);
      const pending = await store.addIntent(
        {
          mode: "unsubscribe",
          topic: "t",
          callback: "https://b.example:2/y",
          leaseSeconds: undefined,
          secret: undefined,
        },
        { claimUntil: 0, client: "192.0.2.1", caps: undefined, pending: { perClient: 10, perHost: 1, total: 10 } },
      );
      expect(pending).toEqual({ overPending: "host" });
      const overHostCap = await store.addIntent(
        { mode: "subscribe", topic: "t", callback: "https://a.example:7443/5", leaseSeconds: 1, secret: undefined },
        { claimUntil: 0, client: "192.0.2.1", caps: { perHost: 3, total: 100 }, pending: undefined },
      );
      expect(overHostCap).toEqual({ overCap: "host" });
    } finally {
      await db.close();
    }
  });
  it("holds the pending and subscription caps exactly when two replicas record and confirm intents at once", async () => {
    const url = await databaseUrlFor(`${KEY}-race`);
    const replicas = [
      await Postgres.connect(url, pino({ level: "silent" })),
      await Postgres.connect(url, pino({ level: "silent" })),
    ];
    try {
      const stores = replicas.map((db) => new PostgresHubStore(db));
      const intent = (i: number) => ({
        mode: "subscribe" as const,
        topic: "t",
        callback: `https://race.example:${1000 + i}/cb`,
        leaseSeconds: 3600,
        secret: undefined,
      });
      const add = (i: number, pending: { perClient: number; perHost: number; total: number } | undefined) =>
        stores[i % 2]?.addIntent(intent(i), { claimUntil: 0, client: `192.0.2.${i % 3}`, caps: undefined, pending });

      const first = await Promise.all(
        Array.from({ length: 40 }, (_, i) => add(i, { perClient: 100, perHost: 12, total: 100 })),
      );
      expect(first.filter((r) => r && "id" in r)).toHaveLength(12);
      expect(first.filter((r) => r && "overPending" in r)).toHaveLength(28);

      const [one, two] = stores;
      const pending = (await one?.claimIntents(1, 2, 100)) ?? [];
      expect(pending).toHaveLength(12);
      const caps = { perHost: 5, total: 100 };
      const confirmed = await Promise.all(
        pending.map((p, i) => (i % 2 === 0 ? one : two)?.confirmIntent(p, 9_000_000_000_000, caps)),
      );
      expect(confirmed.filter((r) => r === "applied")).toHaveLength(5);
      expect(confirmed.filter((r) => r !== "applied")).toEqual(Array(7).fill({ overCap: "host" }));
      expect(await one?.countSubscriptions({ callbackHost: "race.example" })).toBe(5);
      expect(await one?.countSubscribeIntents()).toBe(0);

      // The counts the caps read follow every way a subscription goes: removed, expired, added again.
      expect(await one?.removeSubscription("t", pending[confirmed.indexOf("applied")]?.callback ?? "")).toBe(true);
      expect(await one?.purgeExpired(9_000_000_000_001)).toBe(4);
      const again = await one?.addIntent(intent(50), { claimUntil: 0, client: "192.0.2.9", caps, pending: undefined });
      expect(again).toEqual({ id: expect.any(Number) });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT scope, subscriptions FROM hub_subscription_counts ORDER BY scope");
        expect(rows.map((r) => [r.scope, Number(r.subscriptions)])).toEqual([
          ["", 0],
          ["race.example", 0],
        ]);
      } finally {
        await client.end();
      }
    } finally {
      await Promise.all(replicas.map((db) => db.close()));
      await dropSchema(`${KEY}-race`);
    }
  });
});
