/** The stored `host[:port]` of earlier versions without its port (an IPv6 host keeps its brackets). */
const withoutPort = `CASE
  WHEN callback_host LIKE '[%' THEN substr(callback_host, 1, instr(callback_host, ']'))
  WHEN instr(callback_host, ':') > 0 THEN substr(callback_host, 1, instr(callback_host, ':') - 1)
  ELSE callback_host END`;

/** Schema migrations, applied in order once each; never edit one that has shipped, add a new one. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE subscriptions (
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     callback_host TEXT NOT NULL,
     secret TEXT,
     lease_seconds INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     failures INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (topic, callback)
   ) STRICT;
   CREATE INDEX subscriptions_by_host ON subscriptions (callback_host);
   CREATE TABLE deliveries (
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     sha256 TEXT NOT NULL,
     due_at INTEGER NOT NULL,
     PRIMARY KEY (topic, callback),
     FOREIGN KEY (topic, callback) REFERENCES subscriptions (topic, callback) ON DELETE CASCADE
   ) STRICT;
   CREATE INDEX deliveries_by_due ON deliveries (due_at);
   CREATE TABLE topics (
     topic TEXT PRIMARY KEY,
     distributed_sha256 TEXT NOT NULL
   ) STRICT;`,
  // Intents accepted (202) but not verified yet survive a crash and are verified after a restart.
  `CREATE TABLE intents (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe')),
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     callback_host TEXT NOT NULL,
     lease_seconds INTEGER,
     secret TEXT
   ) STRICT;
   CREATE INDEX intents_by_host ON intents (callback_host);`,
  // Claims with a lease, as in the PostgreSQL store (here one process holds them; they are cleared at open).
  `ALTER TABLE deliveries ADD COLUMN claim TEXT;
   ALTER TABLE deliveries ADD COLUMN claimed_until INTEGER;
   ALTER TABLE intents ADD COLUMN claimed_until INTEGER;`,
  // Per-host limits count by host without port (one host on many ports is one host), and pending
  // verifications are capped per client address too.
  `UPDATE subscriptions SET callback_host = ${withoutPort};
   UPDATE intents SET callback_host = ${withoutPort};
   ALTER TABLE intents ADD COLUMN client TEXT NOT NULL DEFAULT '';
   CREATE INDEX intents_by_client ON intents (client);`,
];
