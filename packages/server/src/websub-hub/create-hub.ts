import { readFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "@riverbend/shared/schemas/config.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import type { Logger } from "pino";
import type { BundleStore } from "../bundle/bundle-store.ts";
import type { Postgres } from "../database/postgres.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { Hub } from "./hub.ts";
import { AddressPolicy } from "./outbound/address-policy.ts";
import { GuardedClient } from "./outbound/guarded-client.ts";
import type { HubRouteOptions } from "./routes.ts";
import { PostgresHubStore } from "./store/postgres-store.ts";
import { SqliteHubStore } from "./store/sqlite-store.ts";

/**
 * Builds the hub from configuration: its store (PostgreSQL when `db` is given, shared by every
 * replica; else the SQLite file in STATE_DIR), guarded client and policies.
 */
export function createHub(config: Config, bundles: BundleStore, logger: Logger, metrics?: Metrics, db?: Postgres) {
  const sqlite = db ? undefined : new SqliteHubStore(path.join(config.STATE_DIR, "hub.sqlite"));
  const store = db ? new PostgresHubStore(db) : (sqlite as SqliteHubStore);
  if (sqlite) logger.info(sqlite.durability(), "websub hub store: SQLite");
  const client = new GuardedClient({
    policy: new AddressPolicy(config.HUB_ALLOWED_CIDRS),
    timeoutMs: config.HUB_TIMEOUT_MS,
    concurrency: { verification: config.HUB_VERIFY_CONCURRENCY, delivery: config.HUB_CONCURRENCY },
    extraCa: config.HUB_EXTRA_CA_FILE ? readFileSync(config.HUB_EXTRA_CA_FILE, "utf8") : undefined,
    userAgent: "riverbend-reviews-websub-hub/1.0 (+https://www.w3.org/TR/websub/)",
  });
  const hub = new Hub({
    store,
    bundles,
    client,
    urls: siteUrls(config.SITE_URL),
    lease: {
      defaultSeconds: config.HUB_LEASE_DEFAULT_SECONDS,
      minSeconds: config.HUB_LEASE_MIN_SECONDS,
      maxSeconds: config.HUB_LEASE_MAX_SECONDS,
    },
    retry: {
      maxFailures: 3,
      minDelayMs: config.HUB_RETRY_MIN_MS,
      maxDelayMs: config.HUB_RETRY_MAX_MS,
      factor: config.HUB_RETRY_FACTOR,
    },
    logger,
    caps: { perHost: config.HUB_MAX_SUBSCRIPTIONS_PER_HOST, total: config.HUB_MAX_SUBSCRIPTIONS },
    pendingCaps: {
      perClient: config.HUB_MAX_PENDING_PER_CLIENT,
      perHost: config.HUB_MAX_PENDING_PER_HOST,
      total: config.HUB_MAX_PENDING,
    },
    // A pending verification is over within one request's timeout.
    pendingRetryAfterSeconds: Math.ceil(config.HUB_TIMEOUT_MS / 1000),
    // Claim only what can run at once, so a claim never waits for a delivery connection; a claim outlives the
    // longest request (timeout), so only a crashed replica's claims lapse.
    maxRunningDeliveries: config.HUB_CONCURRENCY,
    claimMs: 2 * config.HUB_TIMEOUT_MS + 1_000,
    onDelivery: (outcome) =>
      metrics?.delivery(outcome === "removed" ? "gave_up" : outcome === "gone" ? "dropped" : outcome),
  });
  metrics?.trackSubscriptions(async () => {
    if (store.problem()) return new Map();
    const topics = [...hub.topics.keys()];
    const counts = await Promise.all(topics.map((topic) => store.countSubscriptions({ topic })));
    return new Map(topics.map((topic, i) => [topic, counts[i] ?? 0]));
  });
  bundles.onSwap(() => {
    hub.detectChanges().catch((error) => logger.warn({ err: error }, "websub change not recorded yet"));
  });
  const routes: Omit<HubRouteOptions, "bundles"> = {
    hub,
    publishToken: config.HUB_PUBLISH_TOKEN,
    ratePerMinute: config.HUB_RATE_LIMIT_PER_MINUTE,
    callbackHostRatePerMinute: config.HUB_CALLBACK_HOST_RATE_LIMIT_PER_MINUTE,
  };
  const close = async () => {
    await hub.stop();
    await client.close();
    await store.close();
  };
  /** Shutdown past its deadline: the database closes under whatever is still running. */
  const closeNow = () => sqlite?.closeNow();
  return { hub, routes, close, closeNow, problem: () => store.problem() };
}
