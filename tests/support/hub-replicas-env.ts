/**
 * Shared set-up of the multi-replica hub tests: a private PostgreSQL cluster (so the tests may stop
 * it), the sample build and one with one more review, a local HTTPS subscriber, and sidecar
 * processes started on one database and one dist folder, as replicas behind a load balancer are.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { TEST_SITE_URL } from "./global-setup.ts";
import { type HubSidecar, type HubSidecars, startHubSidecar, stopHubSidecars } from "./hub-process-sidecar.ts";
import { dataWithOneMoreReview } from "./hub-process-state.ts";
import { type Subscriber, startSubscriber, testCertificate } from "./hub-process-subscriber.ts";
import { type PrivatePostgres, startPrivatePostgres } from "./private-postgres.ts";
import { runBuild } from "./run-build.ts";

export const FEED = `${TEST_SITE_URL}/feed.xml`;
/** Outbound timeout of every replica; a claim lasts 2 × this + 1 s (see create-hub.ts). */
export const TIMEOUT_MS = 1000;
export const CLAIM_MS = 2 * TIMEOUT_MS + 1000;

export interface ReplicasEnv {
  work: string;
  db: PrivatePostgres;
  firstDist: string;
  nextDist: string;
  /** The dist folder every replica serves. */
  distDir: string;
  subscriber: Subscriber;
  sidecars: HubSidecars;
  start(concurrency?: number): Promise<HubSidecar>;
  /** Runs one SQL query on the shared database. */
  query<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function startReplicasEnv(firstDist: string): Promise<ReplicasEnv> {
  const work = mkdtempSync(path.join(tmpdir(), "hub-replicas-"));
  const nextDist = path.join(work, "next-dist");
  const [db, certificate, build] = await Promise.all([
    startPrivatePostgres(),
    testCertificate(),
    runBuild({
      DATA_DIR: dataWithOneMoreReview(path.join(work, "data-next")),
      DIST_DIR: nextDist,
      SITE_URL: TEST_SITE_URL,
    }),
  ]);
  if (build.code !== 0) throw new Error(`second build failed (${build.code}):\n${build.stdout}\n${build.stderr}`);
  const caFile = path.join(work, "ca.pem");
  writeFileSync(caFile, certificate.cert);
  const distDir = path.join(work, "dist");
  cpSync(firstDist, distDir, { recursive: true });
  const subscriber = await startSubscriber(certificate);
  const sidecars: HubSidecars = new Set();
  const query = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  return {
    work,
    db,
    firstDist,
    nextDist,
    distDir,
    subscriber,
    sidecars,
    query,
    start: (concurrency = 2) =>
      startHubSidecar(
        {
          SITE_URL: TEST_SITE_URL,
          DIST_DIR: distDir,
          STATE_DIR: path.join(work, "unused-state"),
          DATABASE_URL: db.url,
          HUB_ALLOWED_CIDRS: "127.0.0.0/8",
          HUB_EXTRA_CA_FILE: caFile,
          HUB_TIMEOUT_MS: String(TIMEOUT_MS),
          HUB_CONCURRENCY: String(concurrency),
          HUB_RETRY_MIN_MS: "100",
          HUB_RETRY_MAX_MS: "300",
          HUB_RATE_LIMIT_PER_MINUTE: "10000",
          HUB_CALLBACK_HOST_RATE_LIMIT_PER_MINUTE: "10000",
          HUB_MAX_PENDING_PER_CLIENT: "1000",
          HUB_MAX_PENDING_PER_HOST: "1000",
          MCP_SESSION_SECRET: "replica-hub-test-secret-0123456789-abcdefghij",
          LOG_LEVEL: process.env.HUB_TEST_LOG ?? "silent",
        },
        sidecars,
      ),
    async close() {
      await stopHubSidecars(sidecars);
      await subscriber.close();
      db.destroy();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
