import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { memoryMiB } from "./bench/api-process.ts";
import { ask, type Child, nextMessage, startChild, stopAll } from "./bench/hub-processes.ts";
import { buildTwoSites, countSubscriptions, documentOf, swapDist, writeCertificate } from "./bench/hub-site.ts";

/**
 * `npm run bench:hub`: WebSub fan-out of the sidecar's hub. For each subscriber count (default 1000,
 * then 250): a fresh sidecar process and a subscriber process (one HTTPS server, one callback path per
 * subscriber); N subscribe POSTs with bounded concurrency, wait until all are verified, then one content
 * change of /feed.xml (the 50-item Atom feed) and a publish ping. Prints subscribe requests/s, the time
 * from the ping to the last delivery, the peak concurrency the subscriber saw, and the sidecar's memory:
 * RSS (VmRSS) before and at peak, and, through a preloaded probe (scripts/bench/memory-probe.ts),
 * the heap it really retains (after a forced full collection) before the change and half way through
 * the fan-out. Everything runs in a temporary folder and child processes that stop with the benchmark.
 */
const { values } = parseArgs({
  options: {
    subscribers: { type: "string", default: "1000,250" },
    // How long each subscriber takes to answer a delivery (a real callback is not instant).
    "delay-ms": { type: "string", default: "50" },
    // Subscribe POSTs in flight at once.
    "subscribe-concurrency": { type: "string", default: "50" },
    // HUB_CONCURRENCY for the sidecar; unset keeps its default (32).
    concurrency: { type: "string" },
    // An extra run with the largest count where this many subscribers never answer (0 skips it).
    hanging: { type: "string", default: "1" },
  },
});
const counts = values.subscribers.split(",").map(Number);
const delayMs = Number(values["delay-ms"]);
const subscribeConcurrency = Number(values["subscribe-concurrency"]);
const hangingCount = Number(values.hanging);
const SITE_URL = "https://reviews.bench";
const FEED = `${SITE_URL}/feed.xml`;
const FAN_OUT_TARGET_S = 10;
const FORM = { "content-type": "application/x-www-form-urlencoded" };

// Whatever happens, nothing outlives the benchmark.
const deadline = setTimeout(() => {
  console.error("bench:hub did not finish within 10 minutes; stopping.");
  void stopAll().finally(() => process.exit(1));
}, 10 * 60_000);
deadline.unref();

interface Result {
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
const PROBE = pathToFileURL(path.resolve(import.meta.dirname, "bench/memory-probe.ts")).href;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

async function subscribeAll(hubUrl: string, callbackBase: string, n: number): Promise<number> {
  let next = 0;
  const refused: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(subscribeConcurrency, n) }, async () => {
      for (let i = next++; i < n; i = next++) {
        const response = await fetch(hubUrl, {
          method: "POST",
          headers: FORM,
          body: new URLSearchParams({
            "hub.mode": "subscribe",
            "hub.topic": FEED,
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

async function runOnce(
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
        DELAY_MS: String(delayMs),
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
      "sidecar/src/main.ts",
      [],
      {
        PORT: "0",
        SITE_URL,
        DIST_DIR: distDir,
        STATE_DIR: stateDir,
        LOG_LEVEL: "warn",
        RELOAD_INTERVAL_MS: "0",
        HUB_ALLOWED_CIDRS: "127.0.0.0/8",
        HUB_EXTRA_CA_FILE: cert.certFile,
        HUB_RATE_LIMIT_PER_MINUTE: "1000000",
        HUB_CALLBACK_HOST_RATE_LIMIT_PER_MINUTE: "1000000",
        HUB_MAX_SUBSCRIPTIONS_PER_HOST: "1000000",
        ...(values.concurrency ? { HUB_CONCURRENCY: values.concurrency } : {}),
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
    const subscribePerSecond = await subscribeAll(hubUrl, subscriber.url, n);
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
      body: new URLSearchParams({ "hub.mode": "publish", "hub.url": FEED }),
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

async function main(): Promise<number> {
  const work = mkdtempSync(path.join(tmpdir(), "bench-hub-"));
  try {
    console.log("Building two versions of the sample site (the second has one more review)...");
    const [site, cert] = await Promise.all([buildTwoSites(work, SITE_URL), writeCertificate(work)]);
    const feed = documentOf(site.next, "/feed.xml");
    console.log(
      `Topic ${FEED}: 50-item Atom feed, ${(feed.size / 1024).toFixed(0)} KiB; HUB_CONCURRENCY ${values.concurrency ?? "32 (default)"}; ` +
        `each subscriber answers a delivery after ${delayMs} ms; ${subscribeConcurrency} subscribe POSTs in flight.`,
    );
    const results: Result[] = [];
    const runs: [number, number][] = counts.map((n) => [n, 0]);
    if (hangingCount > 0) runs.push([Math.max(...counts), hangingCount]);
    for (const [n, hanging] of runs) {
      const result = await runOnce(n, hanging, site, cert, work);
      results.push(result);
      console.log(
        `  ${n} subscribers${hanging ? ` (${hanging} never answering)` : ""}: ${result.subscribePerSecond.toFixed(0)} subscribe req/s, ` +
          `all verified after ${result.verifiedSeconds.toFixed(2)} s, fan-out ${result.fanOutSeconds.toFixed(2)} s`,
      );
    }
    const f = (value: number, width: number, digits = 1) => value.toFixed(digits).padStart(width);
    console.log(
      "\nsubscribers  hanging  subscribe/s  verified s  fan-out s  deliveries  peak conc. | RSS idle  before    peak  growth | heap peak | retained before   mid  growth | external mid  (MiB)",
    );
    for (const r of results) {
      console.log(
        `${String(r.subscribers).padStart(11)}  ${String(r.hanging).padStart(7)}  ${f(r.subscribePerSecond, 11, 0)}  ` +
          `${f(r.verifiedSeconds, 10, 2)}  ${f(r.fanOutSeconds, 9, 2)}  ${String(r.deliveries).padStart(10)}  ` +
          `${String(r.peakConcurrency).padStart(10)} | ${f(r.rssIdle, 8)}  ${f(r.rssBefore, 6)}  ${f(r.rssPeak, 6)}  ` +
          `${f(r.rssPeak - r.rssBefore, 6)} | ${f(r.heapPeak, 9)} | ${f(r.liveBefore, 15)}  ${f(r.liveMid, 4)}  ` +
          `${f(r.liveMid - r.liveBefore, 6)} | ${f(r.externalMid, 12)}`,
      );
    }
    let missed = 0;
    for (const r of results) {
      if (r.wrongBodies > 0) {
        console.log(`! ${r.subscribers}: ${r.wrongBodies} deliveries did not carry the new feed`);
        missed++;
      }
    }
    const healthy = results.filter((r) => r.hanging === 0);
    const big = healthy.reduce((a, b) => (b.subscribers > a.subscribers ? b : a));
    const fast = big.fanOutSeconds < FAN_OUT_TARGET_S;
    if (!fast) missed++;
    console.log(
      `\nTarget: full fan-out to ${big.subscribers} subscribers in under ${FAN_OUT_TARGET_S} s: ${big.fanOutSeconds.toFixed(2)} s, ${fast ? "met" : "MISSED"}.`,
    );
    const small = healthy.reduce((a, b) => (b.subscribers < a.subscribers ? b : a));
    if (small !== big) {
      const ratio = big.subscribers / small.subscribers;
      const retainedBig = big.liveMid - big.liveBefore;
      const retainedSmall = small.liveMid - small.liveBefore;
      console.log(
        `Memory: half way through the fan-out the sidecar retains ${retainedBig.toFixed(1)} MiB more heap than before it with ` +
          `${big.subscribers} subscribers and ${retainedSmall.toFixed(1)} MiB with ${small.subscribers} (${ratio.toFixed(0)}x the subscribers); ` +
          `RSS grew ${(big.rssPeak - big.rssBefore).toFixed(1)} vs ${(small.rssPeak - small.rssBefore).toFixed(1)} MiB, ` +
          "mostly garbage not yet collected (see heap peak).",
      );
    }
    for (const r of results.filter((result) => result.hanging > 0)) {
      console.log(
        `With ${r.hanging} of ${r.subscribers} subscribers never answering: fan-out ${r.fanOutSeconds.toFixed(2)} s ` +
          `(${r.fanOutSeconds < FAN_OUT_TARGET_S ? "within" : "OVER"} the ${FAN_OUT_TARGET_S} s target; not counted in the exit code).`,
      );
    }
    return missed > 0 ? 1 : 0;
  } finally {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
}
