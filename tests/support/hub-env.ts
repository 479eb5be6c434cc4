/**
 * A WebSub hub wired as in production (Hub + store + GuardedClient, mounted by createApp on an
 * ephemeral port) for tests, over its own copy of a build so a test can change the topics. The store
 * is SQLite, or PostgreSQL (its own schema on TEST_DATABASE_URL) when HUB_TEST_STORE=postgres: the
 * vitest project "hub-postgres" runs every hub test file that way.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import { Postgres } from "@riverbend/server/database/postgres.ts";
import type { RetryPolicy } from "@riverbend/server/websub-hub/distributor.ts";
import { Hub } from "@riverbend/server/websub-hub/hub.ts";
import { AddressPolicy } from "@riverbend/server/websub-hub/outbound/address-policy.ts";
import { GuardedClient } from "@riverbend/server/websub-hub/outbound/guarded-client.ts";
import type { HubRouteOptions } from "@riverbend/server/websub-hub/routes.ts";
import type { HubStore, PendingCaps } from "@riverbend/server/websub-hub/store/hub-store.ts";
import { PostgresHubStore } from "@riverbend/server/websub-hub/store/postgres-store.ts";
import { SqliteHubStore } from "@riverbend/server/websub-hub/store/sqlite-store.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import type { LeasePolicy } from "@riverbend/shared/websub/hub-request.ts";
import { type Logger, pino } from "pino";
import { listen } from "./http.ts";
import { ROOT, runBuild } from "./run-build.ts";
import { databaseUrlFor, dropSchema } from "./test-database.ts";

export const SITE = "https://reviews.test";
export const HUB_URL = `${SITE}/api/websub/hub`;
export const TOPICS = {
  atom: `${SITE}/feed.xml`,
  jsonFeed: `${SITE}/api/feed.json`,
  reviews: `${SITE}/reviews.json`,
} as const;
export const ALL_TOPICS: readonly string[] = Object.values(TOPICS);
export const LOOPBACK = ["127.0.0.0/8", "::1/128"];
export const LEASE: LeasePolicy = { defaultSeconds: 864_000, minSeconds: 86_400, maxSeconds: 1_728_000 };
export const RETRY: RetryPolicy = { maxFailures: 3, minDelayMs: 10, maxDelayMs: 50, factor: 2 };

const silent = pino({ level: process.env.HUB_TEST_LOG ?? "silent" });

/** Which store the hub tests run against (see the vitest projects). */
export const STORE_KIND: "sqlite" | "postgres" = process.env.HUB_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/** A store of the kind under test; `key` names it (the same key opens the same state again). */
export async function openStore(key: string): Promise<{ store: HubStore; closeNow(): void; close(): Promise<void> }> {
  if (STORE_KIND === "sqlite") {
    const store = new SqliteHubStore(key);
    return { store, closeNow: () => store.closeNow(), close: () => store.close() };
  }
  const db = await Postgres.connect(await databaseUrlFor(key), silent);
  return { store: new PostgresHubStore(db), closeNow: () => void db.close(), close: () => db.close() };
}

export interface HubEnvOptions {
  /** The build the env starts from (copied; never changed). */
  dist: string;
  ca: string;
  allowedCidrs?: readonly string[];
  timeoutMs?: number;
  /** Deliveries in flight at once (default 16). */
  concurrency?: number;
  /** Verifications in flight at once (default 16). */
  verifyConcurrency?: number;
  retry?: RetryPolicy;
  lease?: LeasePolicy;
  /** Names the store state (a SQLite file path; a PostgreSQL schema); default new state in the env's folder. */
  storeFile?: string;
  /** Where the injectable clock starts (epoch ms); default Date.now(). The clock runs in real time. */
  clock?: number;
  routes?: Partial<Omit<HubRouteOptions, "hub" | "bundles">>;
  /** Subscription caps (per callback host, in all); default generous. */
  caps?: { perHost: number; total: number };
  /** Pending-verification caps (per client address, per callback host, in all); default generous. */
  pendingCaps?: PendingCaps;
  /** Period of the hub's sweep once `hub.start()` is called. */
  tickMs?: number;
  /** How long the hub's claims last (default the hub's). */
  claimMs?: number;
  /** Where the hub logs; default nowhere. */
  logger?: Logger;
}

export interface HubEnv {
  base: string;
  hub: Hub;
  store: HubStore;
  client: GuardedClient;
  bundles: BundleStore;
  /** The folder served (and changed by `switchTo`). */
  distDir: string;
  storeFile: string;
  /** The injectable clock the hub reads: real time, shifted by `advance`. */
  now(): number;
  advance(ms: number): void;
  /**
   * Puts another build in place of the served one, reloads the BundleStore and lets the hub look
   * for changed topics; returns the topics it found changed.
   */
  switchTo(dist: string): Promise<string[]>;
  /** Puts another build in place of the served one without telling anyone (as a build landing does). */
  replaceFiles(dist: string): void;
  /** POSTs a form to the hub (body as given: a string is sent verbatim). */
  post(
    form: string | Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; type: string | null; text: string; headers: Headers }>;
  close(): Promise<void>;
  /**
   * Stops serving and closes the store without waiting for the hub's work in progress, as if the
   * process died (the caller makes sure nothing in flight touches the store again).
   */
  crash(): Promise<void>;
}

export async function startHubEnv(options: HubEnvOptions): Promise<HubEnv> {
  const work = mkdtempSync(path.join(tmpdir(), "hub-env-"));
  const distDir = path.join(work, "dist");
  cpSync(options.dist, distDir, { recursive: true });
  const storeFile = options.storeFile ?? path.join(work, "state", "hub.sqlite");
  let offset = (options.clock ?? Date.now()) - Date.now();
  const now = () => Date.now() + offset;
  const bundles = new BundleStore(distDir, silent);
  const opened = await openStore(storeFile);
  const { store } = opened;
  const client = new GuardedClient({
    policy: new AddressPolicy(options.allowedCidrs ?? LOOPBACK),
    timeoutMs: options.timeoutMs ?? 1500,
    concurrency: { verification: options.verifyConcurrency ?? 16, delivery: options.concurrency ?? 16 },
    extraCa: options.ca,
    userAgent: "riverbend-reviews-websub-hub/test",
  });
  const hub = new Hub({
    store,
    bundles,
    client,
    urls: siteUrls(SITE),
    lease: options.lease ?? LEASE,
    retry: options.retry ?? RETRY,
    logger: options.logger ?? silent,
    caps: options.caps ?? { perHost: 1_000, total: 100_000 },
    pendingCaps: options.pendingCaps ?? { perClient: 1_000, perHost: 1_000, total: 10_000 },
    pendingRetryAfterSeconds: Math.ceil((options.timeoutMs ?? 1500) / 1000),
    now,
    ...(options.tickMs === undefined ? {} : { tickMs: options.tickMs }),
    ...(options.claimMs === undefined ? {} : { claimMs: options.claimMs }),
  });
  // What hub.start() does first: the served build is the baseline, nothing is owed yet.
  await hub.detectChanges();
  const app = createApp({
    config: { SITE_URL: SITE, SERVE_STATIC: true },
    store: bundles,
    logger: silent,
    hub: {
      hub,
      publishToken: undefined,
      ratePerMinute: 100_000,
      callbackHostRatePerMinute: 100_000,
      ...options.routes,
    },
  });
  const server = await listen(app);
  let closed = false;
  return {
    base: server.base,
    hub,
    store,
    client,
    bundles,
    distDir,
    storeFile,
    now,
    advance: (ms) => {
      offset += ms;
    },
    replaceFiles(dist) {
      rmSync(distDir, { recursive: true, force: true });
      cpSync(dist, distDir, { recursive: true });
    },
    async switchTo(dist) {
      rmSync(distDir, { recursive: true, force: true });
      cpSync(dist, distDir, { recursive: true });
      if (!bundles.reload()) throw new Error(`the BundleStore did not load ${dist}`);
      return hub.detectChanges();
    },
    async post(form, headers = {}) {
      const body = typeof form === "string" ? form : new URLSearchParams(form).toString();
      const response = await fetch(`${server.base}/api/websub/hub`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body,
      });
      return {
        status: response.status,
        type: response.headers.get("content-type"),
        text: await response.text(),
        headers: response.headers,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      await hub.stop();
      await client.close();
      await opened.close();
      bundles.stop();
      if (STORE_KIND === "postgres" && !options.storeFile) await dropSchema(storeFile);
      rmSync(work, { recursive: true, force: true });
    },
    async crash() {
      if (closed) return;
      closed = true;
      await server.close();
      opened.closeNow();
      bundles.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** A review added to a copy of data/ to change the topics. */
function extraReview(id: string, date: string): object {
  return {
    id,
    date,
    rating: 4,
    title: `Hub test review ${id}`,
    text: "Came the same day, replaced the wax ring under the upstairs toilet and checked the flange. Quick and tidy.",
    author: { name: "Hub T.", locality: "Sacramento" },
    verified: true,
    verification: { method: "job_record" },
    source: "direct",
    technicians: ["Chris M."],
    services: ["drain-cleaning"],
    service_area: "sacramento",
  };
}

/**
 * Builds a variant of the sample data with one more review into `dir/dist-NAME`. Two builds must not
 * run at once (they share .astro/ in the repository), so a failed build is retried a few times in
 * case another test file was building at the same moment.
 */
export async function buildVariant(dir: string, name: string, review: { id: string; date: string }): Promise<string> {
  const data = path.join(dir, `data-${name}`);
  cpSync(path.join(ROOT, "data"), data, { recursive: true });
  writeFileSync(
    path.join(data, "reviews", `${review.id}.json`),
    `${JSON.stringify(extraReview(review.id, review.date), null, 2)}\n`,
  );
  const dist = path.join(dir, `dist-${name}`);
  let output = "";
  for (let attempt = 1; attempt <= 4; attempt++) {
    const run = await runBuild({ DATA_DIR: data, DIST_DIR: dist, SITE_URL: SITE });
    if (run.code === 0) return dist;
    output = `${run.stdout}\n${run.stderr}`;
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
  }
  throw new Error(`build of variant ${name} failed:\n${output}`);
}
