import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { startPrivatePostgres } from "../../tests/support/private-postgres.ts";
import { cpuMs, memoryMiB } from "./api-process.ts";
import { ask, type Child, nextMessage, startChild } from "./hub-processes.ts";
import { documentOf, swapDist } from "./hub-site.ts";

/**
 * bench:hub on PostgreSQL: for each replica count, a fresh database, that many sidecar processes on
 * it and on one dist folder, N subscribers subscribed through the replicas in turn, then one change
 * and its publish ping to the first replica; timed to the moment every subscriber received the new
 * feed. Duplicates are deliveries beyond one per subscriber.
 */
export interface ReplicaSettings {
  siteUrl: string;
  feed: string;
  delayMs: number;
  subscribeConcurrency: number;
  concurrency: string | undefined;
}

export interface ReplicaResult {
  replicas: number;
  subscribers: number;
  verifiedSeconds: number;
  /** Subscribe requests answered 503 (pool busy) and sent again after Retry-After. */
  subscribeRetries: number;
  fanOutSeconds: number;
  deliveriesPerSecond: number;
  duplicates: number;
  wrongBodies: number;
  /** Peak VmRSS of each replica during the fan-out (MiB). */
  rssPeak: number[];
  /** CPU seconds each replica and the subscriber used during the fan-out (where the time went). */
  cpuReplicas: number[];
  cpuSubscriber: number;
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const SUBSCRIBER_PROCESSES = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Subscribes N callbacks through the replicas in turn; a 503 is retried after its Retry-After, as a client should. */
async function subscribeAll(
  settings: ReplicaSettings,
  hubs: string[],
  callbackBases: string[],
  n: number,
): Promise<number> {
  let next = 0;
  let retried = 0;
  const refused: string[] = [];
  const subscribe = (i: number) =>
    fetch(hubs[i % hubs.length] as string, {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({
        "hub.mode": "subscribe",
        "hub.topic": settings.feed,
        "hub.callback": `${callbackBases[i % callbackBases.length]}/cb/${i}`,
      }),
    });
  await Promise.all(
    Array.from({ length: Math.min(settings.subscribeConcurrency, n) }, async () => {
      for (let i = next++; i < n; i = next++) {
        let response = await subscribe(i);
        for (let attempt = 1; response.status === 503 && attempt <= 3; attempt++) {
          retried++;
          await response.text();
          await sleep(Number(response.headers.get("retry-after") ?? 1) * 1000);
          response = await subscribe(i);
        }
        const text = await response.text();
        if (response.status !== 202) refused.push(`${response.status} ${text}`);
      }
    }),
  );
  if (refused.length > 0) throw new Error(`${refused.length} subscribe requests refused, e.g. ${refused[0]}`);
  return retried;
}

/** Runs every replica count on one private PostgreSQL cluster, a fresh database each. */
export async function runReplicas(
  settings: ReplicaSettings,
  counts: number[],
  n: number,
  site: { first: string; next: string },
  cert: { keyFile: string; certFile: string },
  work: string,
): Promise<ReplicaResult[]> {
  const cluster = await startPrivatePostgres();
  try {
    const results: ReplicaResult[] = [];
    for (const replicas of counts) {
      const database = `bench_${replicas}`;
      await withClient(cluster.url, (client) => client.query(`CREATE DATABASE ${database}`));
      const url = new URL(cluster.url);
      url.pathname = `/${database}`;
      results.push(await runOnce(settings, replicas, n, url.toString(), site, cert, work));
    }
    return results;
  } finally {
    cluster.destroy();
  }
}

async function runOnce(
  settings: ReplicaSettings,
  replicas: number,
  n: number,
  databaseUrl: string,
  site: { first: string; next: string },
  cert: { keyFile: string; certFile: string },
  work: string,
): Promise<ReplicaResult> {
  const distDir = path.join(work, `dist-replicas-${replicas}`);
  cpSync(site.first, distDir, { recursive: true });
  const children: Child[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    // Subscribers in several processes (callbacks spread over them), as many servers are in reality:
    // one process would be the limit on this machine before the hub is.
    const subscribers = await Promise.all(
      Array.from({ length: SUBSCRIBER_PROCESSES }, (_, i) =>
        startChild(
          `subscriber ${i + 1}`,
          "scripts/bench/hub-subscriber.ts",
          [cert.keyFile, cert.certFile],
          { DELAY_MS: String(settings.delayMs) },
          { ipc: true },
        ),
      ),
    );
    children.push(...subscribers);
    const share = (i: number) => Math.floor(n / SUBSCRIBER_PROCESSES) + (i < n % SUBSCRIBER_PROCESSES ? 1 : 0);
    const env = {
      PORT: "0",
      SITE_URL: settings.siteUrl,
      DIST_DIR: distDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      READ_RATE_LIMIT_PER_MINUTE: "0",
      RELOAD_INTERVAL_MS: "0",
      HUB_ALLOWED_CIDRS: "127.0.0.0/8",
      HUB_EXTRA_CA_FILE: cert.certFile,
      HUB_RATE_LIMIT_PER_MINUTE: "1000000",
      HUB_CALLBACK_HOST_RATE_LIMIT_PER_MINUTE: "1000000",
      HUB_MAX_SUBSCRIPTIONS_PER_HOST: "1000000",
      // Every subscribe comes from one address towards one host; the pending caps would refuse most.
      HUB_MAX_PENDING_PER_CLIENT: "1000000",
      HUB_MAX_PENDING_PER_HOST: "1000000",
      HUB_MAX_PENDING: "1000000",
      ...(settings.concurrency ? { HUB_CONCURRENCY: settings.concurrency } : {}),
    };
    // One at a time: the first applies the migrations, the others find them applied.
    const sidecars: Child[] = [];
    for (let i = 0; i < replicas; i++) {
      const sidecar = await startChild(`sidecar ${i + 1}`, "packages/server/src/main.ts", [], env);
      sidecars.push(sidecar);
      children.push(sidecar);
    }
    const hubs = sidecars.map((s) => `${s.url}/api/websub/hub`);

    const started = performance.now();
    const retried = await subscribeAll(
      settings,
      hubs,
      subscribers.map((sub) => sub.url),
      n,
    );
    const count = () =>
      withClient(databaseUrl, async (client) =>
        Number((await client.query("SELECT COUNT(*) AS n FROM hub_subscriptions")).rows[0]?.n),
      );
    for (let deadline = Date.now() + 180_000; (await count()) < n; await sleep(250)) {
      if (Date.now() > deadline) throw new Error(`${n} subscriptions not verified within 180 s`);
    }
    const verifiedSeconds = (performance.now() - started) / 1000;
    await sleep(500);

    const newest = documentOf(site.next, "/feed.xml");
    await Promise.all(
      subscribers.map((sub, i) =>
        ask(sub.child, { type: "expect", count: share(i), sha256: newest.sha256 }, "expecting"),
      ),
    );
    swapDist(site.next, distDir);
    const rssPeak = sidecars.map(() => 0);
    sampler = setInterval(() => {
      sidecars.forEach((s, i) => {
        try {
          rssPeak[i] = Math.max(rssPeak[i] ?? 0, memoryMiB(s.pid).rss);
        } catch {
          // The process is gone; the run fails below.
        }
      });
    }, 20);
    const cpuBefore = [...sidecars, ...subscribers].map((c) => cpuMs(c.pid));
    const done = Promise.all(subscribers.map((sub) => nextMessage<{ at: number }>(sub.child, "done", 180_000)));
    const changedAt = Date.now();
    const ping = await fetch(hubs[0] as string, {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({ "hub.mode": "publish", "hub.url": settings.feed }),
    });
    if (ping.status !== 202) throw new Error(`publish ping answered ${ping.status}: ${await ping.text()}`);
    const finished = Math.max(...(await done).map((d) => d.at));
    const fanOutSeconds = (finished - changedAt) / 1000;
    const cpu = [...sidecars, ...subscribers].map((c, i) => (cpuMs(c.pid) - (cpuBefore[i] ?? 0)) / 1000);
    // Late duplicates would arrive after "done": give them time to show up before counting.
    await sleep(2000);
    clearInterval(sampler);
    const all = await Promise.all(
      subscribers.map((sub) =>
        ask<{ deliveries: number; distinct: number; wrongBodies: number }>(sub.child, { type: "stats" }, "stats"),
      ),
    );
    const sum = (key: "deliveries" | "distinct" | "wrongBodies") => all.reduce((total, st) => total + st[key], 0);
    const stats = { deliveries: sum("deliveries"), distinct: sum("distinct"), wrongBodies: sum("wrongBodies") };
    return {
      replicas,
      subscribers: n,
      verifiedSeconds,
      subscribeRetries: retried,
      fanOutSeconds,
      deliveriesPerSecond: n / fanOutSeconds,
      duplicates: stats.deliveries - stats.wrongBodies - stats.distinct,
      wrongBodies: stats.wrongBodies,
      rssPeak,
      cpuReplicas: cpu.slice(0, replicas),
      cpuSubscriber: cpu.slice(replicas).reduce((a, b) => a + b, 0),
    };
  } finally {
    if (sampler) clearInterval(sampler);
    await Promise.all(children.map((child) => child.stop()));
    rmSync(distDir, { recursive: true, force: true });
  }
}

const SERVED_TARGET_S = 30;

/** Prints the runs and the targets; returns how many targets were missed. */
export function printReplicaResults(results: ReplicaResult[]): number {
  console.log(
    "\nreplicas  subscribers  verified s  503 retries  fan-out s  deliveries/s  duplicates  peak RSS per replica (MiB)  CPU s per replica | subscriber",
  );
  for (const r of results) {
    console.log(
      `${String(r.replicas).padStart(8)}  ${String(r.subscribers).padStart(11)}  ${r.verifiedSeconds.toFixed(1).padStart(10)}  ` +
        `${String(r.subscribeRetries).padStart(11)}  ` +
        `${r.fanOutSeconds.toFixed(2).padStart(9)}  ${r.deliveriesPerSecond.toFixed(0).padStart(12)}  ` +
        `${String(r.duplicates).padStart(10)}  ${r.rssPeak
          .map((v) => v.toFixed(0))
          .join(", ")
          .padEnd(26)}  ` +
        `${r.cpuReplicas.map((v) => v.toFixed(1)).join(", ")} | ${r.cpuSubscriber.toFixed(1)}`,
    );
  }
  let missed = 0;
  for (const r of results) {
    const ok = r.fanOutSeconds < SERVED_TARGET_S && r.duplicates === 0 && r.wrongBodies === 0;
    if (!ok) missed++;
    console.log(
      `Target, ${r.replicas} replica(s): ${r.subscribers} served in under ${SERVED_TARGET_S} s with 0 duplicates: ` +
        `${r.fanOutSeconds.toFixed(2)} s, ${r.duplicates} duplicates, ${ok ? "met" : "MISSED"}.`,
    );
  }
  const one = results.find((r) => r.replicas === 1);
  const three = results.find((r) => r.replicas === 3);
  if (one && three) {
    const ratio = three.deliveriesPerSecond / one.deliveriesPerSecond;
    const ok = ratio >= 2;
    if (!ok) missed++;
    console.log(
      `Target: three replicas deliver at least 2x as fast as one: ${ratio.toFixed(2)}x ` +
        `(${three.deliveriesPerSecond.toFixed(0)} vs ${one.deliveriesPerSecond.toFixed(0)} deliveries/s), ${ok ? "met" : "MISSED"}.`,
    );
  }
  return missed;
}
