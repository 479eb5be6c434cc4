/**
 * The sidecar's PostgreSQL schema, applied in order once each at start-up (under an advisory lock,
 * so replicas starting together apply it once); never edit one that has shipped, add a new one.
 * Times are epoch milliseconds, as in the SQLite store, so both stores share the hub's clock.
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE hub_subscriptions (
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     callback_host TEXT NOT NULL,
     secret TEXT,
     lease_seconds INTEGER NOT NULL,
     expires_at BIGINT NOT NULL,
     failures INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (topic, callback)
   );
   CREATE INDEX hub_subscriptions_by_host ON hub_subscriptions (callback_host);
   CREATE TABLE hub_deliveries (
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     sha256 TEXT NOT NULL,
     due_at BIGINT NOT NULL,
     claim TEXT,
     claimed_until BIGINT,
     PRIMARY KEY (topic, callback),
     FOREIGN KEY (topic, callback) REFERENCES hub_subscriptions (topic, callback) ON DELETE CASCADE
   );
   CREATE INDEX hub_deliveries_by_due ON hub_deliveries (due_at);
   CREATE TABLE hub_topics (
     topic TEXT PRIMARY KEY,
     distributed_sha256 TEXT NOT NULL
   );
   CREATE TABLE hub_intents (
     id BIGSERIAL PRIMARY KEY,
     mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe')),
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     callback_host TEXT NOT NULL,
     lease_seconds INTEGER,
     secret TEXT,
     claimed_until BIGINT
   );
   CREATE INDEX hub_intents_by_host ON hub_intents (callback_host);
   CREATE TABLE mcp_revoked_sessions (
     id TEXT PRIMARY KEY,
     expires_at BIGINT NOT NULL
   );`,
  // Per-host limits count by host without port (one host on many ports is one host), and pending
  // verifications are capped per client address too.
  `UPDATE hub_subscriptions SET callback_host = regexp_replace(callback_host, ':[0-9]+$', '');
   UPDATE hub_intents SET callback_host = regexp_replace(callback_host, ':[0-9]+$', '');
   ALTER TABLE hub_intents ADD COLUMN client TEXT NOT NULL DEFAULT '';
   CREATE INDEX hub_intents_by_client ON hub_intents (client);`,
  // The subscription caps read these counts instead of counting rows: a cap check under the caps lock
  // then costs the same with 10 subscriptions as with 100,000. Scope '' counts all hosts; every
  // change takes that row first, so concurrent changes queue there instead of deadlocking.
  `CREATE TABLE hub_subscription_counts (
     scope TEXT PRIMARY KEY,
     subscriptions BIGINT NOT NULL
   );
   INSERT INTO hub_subscription_counts (scope, subscriptions)
     SELECT '', COUNT(*) FROM hub_subscriptions
     UNION ALL SELECT callback_host, COUNT(*) FROM hub_subscriptions GROUP BY callback_host;
   CREATE FUNCTION hub_count_subscription(host TEXT, delta INTEGER) RETURNS void LANGUAGE sql AS $$
     INSERT INTO hub_subscription_counts AS c (scope, subscriptions) VALUES ('', delta)
       ON CONFLICT (scope) DO UPDATE SET subscriptions = c.subscriptions + delta;
     INSERT INTO hub_subscription_counts AS c (scope, subscriptions) VALUES (host, delta)
       ON CONFLICT (scope) DO UPDATE SET subscriptions = c.subscriptions + delta;
   $$;
   CREATE FUNCTION hub_subscriptions_counted() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP <> 'INSERT' THEN PERFORM hub_count_subscription(OLD.callback_host, -1); END IF;
     IF TG_OP <> 'DELETE' THEN PERFORM hub_count_subscription(NEW.callback_host, 1); END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER hub_subscriptions_counted AFTER INSERT OR DELETE OR UPDATE OF callback_host ON hub_subscriptions
     FOR EACH ROW EXECUTE FUNCTION hub_subscriptions_counted();`,
];
