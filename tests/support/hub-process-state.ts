import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ROOT } from "./run-build.ts";

export interface SubscriptionRow {
  topic: string;
  callback: string;
  failures: number;
  expires_at: number;
}

export interface DeliveryRow {
  topic: string;
  callback: string;
  sha256: string;
}

/**
 * Reads the hub's SQLite file read-only (node:sqlite) and closes it again: the subscriptions, the
 * deliveries still owed, the last distributed hash per topic and the intents not verified yet.
 */
export function readHubState(stateDir: string): {
  subscriptions: SubscriptionRow[];
  deliveries: DeliveryRow[];
  topics: Map<string, string>;
  pendingIntents: number;
} {
  const file = path.join(stateDir, "hub.sqlite");
  if (!existsSync(file)) return { subscriptions: [], deliveries: [], topics: new Map(), pendingIntents: 0 };
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    db.exec("PRAGMA busy_timeout = 2000");
    const subscriptions = db
      .prepare("SELECT topic, callback, failures, expires_at FROM subscriptions ORDER BY topic, callback")
      .all() as unknown as SubscriptionRow[];
    const deliveries = db
      .prepare("SELECT topic, callback, sha256 FROM deliveries ORDER BY topic, callback")
      .all() as unknown as DeliveryRow[];
    const topics = new Map(
      (
        db.prepare("SELECT topic, distributed_sha256 FROM topics").all() as {
          topic: string;
          distributed_sha256: string;
        }[]
      ).map((row) => [row.topic, row.distributed_sha256]),
    );
    const hasIntents = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'intents'").get();
    const pendingIntents = hasIntents
      ? Number((db.prepare("SELECT COUNT(*) AS n FROM intents").get() as { n: number }).n)
      : 0;
    return { subscriptions, deliveries, topics, pendingIntents };
  } finally {
    db.close();
  }
}

/** Reads one document of a build as served: exact bytes, Content-Type and hash from its manifest. */
export function distDocument(dist: string, urlPath: string): { body: Buffer; contentType: string; sha256: string } {
  const manifest = JSON.parse(readFileSync(path.join(dist, "build-manifest.json"), "utf8")) as {
    entries: { path: string; file: string; sha256: string; content_type: string }[];
  };
  const entry = manifest.entries.find((e) => e.path === urlPath);
  if (!entry) throw new Error(`${urlPath} is not in ${dist}`);
  return { body: readFileSync(path.join(dist, entry.file)), contentType: entry.content_type, sha256: entry.sha256 };
}

/** Copies data/ to `dir` and adds one review dated 2026-11-21 (newest, so it enters both feeds). */
export function dataWithOneMoreReview(dir: string, id = "2026-11-21-hub-test"): string {
  cpSync(path.join(ROOT, "data"), dir, { recursive: true });
  const review = {
    id,
    date: "2026-11-21",
    rating: 5,
    title: "Fast fix for a leaking shutoff valve",
    text: "The shutoff valve under the kitchen sink started leaking on a Saturday. Bill came the same afternoon, replaced it and checked the other valves too.",
    author: { name: "Test R.", locality: "Roseville" },
    verified: true,
    verification: { method: "job_record" },
    source: "direct",
    technicians: ["Bill H."],
    services: ["water-heater-repair"],
    service_area: "roseville",
  };
  writeFileSync(path.join(dir, "reviews", `${id}.json`), `${JSON.stringify(review, null, 2)}\n`);
  return dir;
}

/**
 * Puts a copy of build `from` in place of `dist` the way a build does (rename away, rename in), so
 * the sidecar sees a new manifest at its DIST_DIR.
 */
export function swapDist(from: string, dist: string): void {
  const staging = `${dist}.staging`;
  const previous = `${dist}.previous`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(from, staging, { recursive: true });
  if (existsSync(dist)) renameSync(dist, previous);
  renameSync(staging, dist);
  rmSync(previous, { recursive: true, force: true });
}
