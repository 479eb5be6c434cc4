import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { memoryMiB } from "./api-process.ts";
import { ask, type Child, nextMessage, startChild } from "./hub-processes.ts";
import { countSubscriptions, documentOf, swapDist } from "./hub-site.ts";

/**
 * One bench:hub run: a fresh sidecar (memory probe preloaded) and subscriber process, N verified
 * subscriptions, one content change and its publish ping, timed to the last delivery, with the
 * sidecar's memory sampled throughout.
 */

/** How every run is set up, from the command line. */
export interface HubSettings {
  siteUrl: string;
  feed: string;
  /** How long each subscriber takes to answer a delivery (ms). */
  delayMs: number;
  /** Subscribe POSTs in flight at once. */
  subscribeConcurrency: number;
  /** HUB_CONCURRENCY for the sidecar; undefined keeps its default. */
  concurrency: string | undefined;
}

export interface Result {
  subscribers: number;
  hanging: number;
  subscribePerSecond: number;
  verifiedSeconds: number;
  fanOutSeconds: number;
  deliveries: number;
  wrongBodies: number;
  peakConcurrency: number;
  rssIdle: number;
  rssBefore: number;
  rssPeak: number;
  hwm: number;
  /** Largest process.memoryUsage().heapUsed seen (20 ms samples), garbage included (MiB). */
  heapPeak: number;
  /** Heap retained after a forced full collection: before the change and half way through (MiB). */
  liveBefore: number;
  liveMid: number;
  /** Buffer/native memory (process.memoryUsage().external) half way through (MiB). */
  externalMid: number;
}

interface MemorySample {
  rss: number;
  heap: number;
  external: number;
  buffers: number;
}
interface LiveSample {
  heap: number;
  external: number;
}
const MiB = 1024 * 1024;
const PROBE = pathToFileURL(path.resolve(import.meta.dirname, "memory-probe.ts")).href;
const FORM = { "content-type": "application/x-www-form-urlencoded" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

async function subscribeAll(settings: HubSettings, hubUrl: string, callbackBase: string, n: number): Promise<number> {
  let next = 0;
  const refused: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(settings.subscribeConcurrency, n) }, async () => {
      for (let i = next++; i < n; i = next++) {
        const response = await fetch(hubUrl, {
          method: "POST",
          headers: FORM,
          body: new URLSearchParams({
            "hub.mode": "subscribe",
            "hub.topic": settings.feed,
            "hub.callback": `${callbackBase}/cb/${i}`,
          }),
        });
        const text = await response.text();
        if (response.status !== 202) refused.push(`${response.status} ${text}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (refused.length > 0) throw new Error(`${refused.length} subscribe requests refused, e.g. ${refused[0]}`);
  return n / seconds;
}

export async function runOnce(
  settings: HubSettings,
  n: number,
  hanging: number,
  site: { first: string; next: string },
  cert: { keyFile: string; certFile: string },
  work: string,
): Promise<Result> {
  const stateDir = path.join(work, `state-${n}-${hanging}`);
  const distDir = path.join(work, `dist-${n}-${hanging}`);
  cpSync(site.first, distDir, { recursive: true });
  const children: Child[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    const subscriber = await startChild(
      "subscriber",
      "scripts/bench/hub-subscriber.ts",
      [cert.keyFile, cert.certFile],
      {
        DELAY_MS: String(settings.delayMs),
        HANG_PATHS: Array.from({ length: hanging }, (_, i) => `/cb/${i}`).join(","),
      },
      { ipc: true },
    );
    children.push(subscriber);
    let latest: MemorySample | undefined;
    let heapPeak = 0;
    let liveWaiter: ((live: LiveSample) => void) | undefined;
    const onStderrLine = (line: string) => {
      if (line.startsWith("memprobe-live ")) {
        liveWaiter?.(JSON.parse(line.slice("memprobe-live ".length)) as LiveSample);
        liveWaiter = undefined;
      } else if (line.startsWith("memprobe ")) {
        latest = JSON.parse(line.slice("memprobe ".length)) as MemorySample;
        heapPeak = Math.max(heapPeak, latest.heap);
      }
    };
    const sidecar = await startChild(
      "sidecar",
      "packages/server/src/main.ts",
      [],
      {
        PORT: "0",
        SITE_URL: settings.siteUrl,
        DIST_DIR: distDir,
        STATE_DIR: stateDir,
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
      },
      { nodeArgs: ["--expose-gc", "--import", PROBE], onStderrLine },
    );
    children.push(sidecar);
    /** Asks the probe for a full collection and the heap that survives it. */
    const live = () =>
      new Promise<LiveSample>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("the memory probe did not answer SIGUSR2")), 10_000);
        liveWaiter = (sample) => {
          clearTimeout(timer);
          resolve(sample);
        };
        process.kill(sidecar.pid, "SIGUSR2");
      });
    const rssIdle = memoryMiB(sidecar.pid).rss;
    const hubUrl = `${sidecar.url}/api/websub/hub`;

    const subscribeStarted = performance.now();
    const subscribePerSecond = await subscribeAll(settings, hubUrl, subscriber.url, n);
    await until(`${n} verified subscriptions`, () => countSubscriptions(stateDir) === n, 120_000);
    const verifiedSeconds = (performance.now() - subscribeStarted) / 1000;
    await sleep(1000);
    const liveBefore = await live();
    const before = memoryMiB(sidecar.pid);
    if (!latest) throw new Error("the memory probe in the sidecar reported nothing");
    heapPeak = latest.heap;

    // The change: a build with one more review swapped into DIST_DIR, then the publish ping.
    const newest = documentOf(site.next, "/feed.xml");
    await ask(subscriber.child, { type: "expect", count: n, sha256: newest.sha256 }, "expecting");
    swapDist(site.next, distDir);
    let rssPeak = before.rss;
    sampler = setInterval(() => {
      try {
        rssPeak = Math.max(rssPeak, memoryMiB(sidecar.pid).rss);
      } catch {
        // The process is gone; the run fails below.
      }
    }, 10);
    const done = nextMessage<{ at: number; deliveries: number; distinct: number; peak: number }>(
      subscriber.child,
      "done",
      120_000,
    );
    const liveMid = nextMessage(subscriber.child, "half", 120_000).then(live);
    // Awaited below; if the run fails first, its rejection must not surface on its own.
    liveMid.catch(() => undefined);
    const changedAt = Date.now();
    const ping = await fetch(hubUrl, {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({ "hub.mode": "publish", "hub.url": settings.feed }),
    });
    if (ping.status !== 202) throw new Error(`publish ping answered ${ping.status}: ${await ping.text()}`);
    const [finished, mid] = await Promise.all([done, liveMid]);
    clearInterval(sampler);
    const fanOutSeconds = (finished.at - changedAt) / 1000;
    const after = memoryMiB(sidecar.pid);
    const stats = await ask<{ deliveries: number; wrongBodies: number; peak: number }>(
      subscriber.child,
      { type: "stats" },
      "stats",
    );
    return {
      subscribers: n,
      hanging,
      subscribePerSecond,
      verifiedSeconds,
      fanOutSeconds,
      deliveries: stats.deliveries,
      wrongBodies: stats.wrongBodies,
      peakConcurrency: stats.peak,
      rssIdle,
      rssBefore: before.rss,
      rssPeak: Math.max(rssPeak, after.rss),
      hwm: after.peak,
      heapPeak: heapPeak / MiB,
      liveBefore: liveBefore.heap / MiB,
      liveMid: mid.heap / MiB,
      externalMid: mid.external / MiB,
    };
  } finally {
    if (sampler) clearInterval(sampler);
    await Promise.all(children.map((child) => child.stop()));
    rmSync(distDir, { recursive: true, force: true });
  }
}
