/**
 * The hub's SQLite store on disk (issue 20): WAL with synchronous=FULL, so a power loss cannot take
 * back a committed subscription; and the migration that re-keys callback hosts of earlier versions
 * (stored as host:port) by host alone.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { MIGRATIONS } from "@riverbend/server/websub-hub/store/migrations.ts";
import { SqliteHubStore } from "@riverbend/server/websub-hub/store/sqlite-store.ts";
import { afterAll, describe, expect, it } from "vitest";

const work = mkdtempSync(path.join(tmpdir(), "sqlite-hub-store-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the hub's SQLite store", () => {
  it("runs in WAL mode with synchronous=FULL on its connection", async () => {
    const store = new SqliteHubStore(path.join(work, "pragma", "hub.sqlite"));
    try {
      expect(store.durability()).toEqual({ journalMode: "wal", synchronous: "FULL" });
    } finally {
      await store.close();
    }
  });

  it("re-keys callback hosts stored as host:port by host alone when it opens an earlier version's file", async () => {
    const file = path.join(work, "earlier.sqlite");
    const earlier = new DatabaseSync(file);
    earlier.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY) STRICT");
    MIGRATIONS.slice(0, 3).forEach((sql, i) => {
      earlier.exec(sql);
      earlier.prepare("INSERT INTO schema_migrations (version) VALUES (?)").run(i + 1);
    });
    const insert = earlier.prepare(
      "INSERT INTO subscriptions (topic, callback, callback_host, lease_seconds, expires_at) VALUES ('t', ?, ?, 1, 9e12)",
    );
    for (const [callback, host] of [
      ["https://a.example:8443/1", "a.example:8443"],
      ["https://a.example:9443/2", "a.example:9443"],
      ["https://a.example/3", "a.example"],
      ["https://[2001:db8::1]:8443/4", "[2001:db8::1]:8443"],
    ]) {
      insert.run(callback as string, host as string);
    }
    earlier
      .prepare("INSERT INTO intents (mode, topic, callback, callback_host) VALUES ('unsubscribe', 't', ?, ?)")
      .run("https://b.example:1/x", "b.example:1");
    earlier.close();

    const store = new SqliteHubStore(file);
    try {
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
    } finally {
      await store.close();
    }
  });
});
