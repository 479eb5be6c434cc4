import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { stopAll } from "./bench/hub-processes.ts";
import { printReplicaResults, runReplicas } from "./bench/hub-replicas.ts";
import { printResults, printRun } from "./bench/hub-report.ts";
import { type HubSettings, type Result, runOnce } from "./bench/hub-run.ts";
import { buildTwoSites, documentOf, writeCertificate } from "./bench/hub-site.ts";

/**
 * `npm run bench:hub`: WebSub fan-out of the sidecar's hub on PostgreSQL (default): one change to
 * `--subscribers` (default 10000) verified subscribers answering after `--delay-ms` (default 50),
 * with one and with three replicas (`--replicas 1,3`) on a private throwaway cluster; see
 * scripts/bench/hub-replicas.ts.
 *
 * `--store sqlite`: the single-process SQLite hub. For each subscriber count (default 1000,
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
    store: { type: "string", default: "postgres" },
    replicas: { type: "string", default: "1,3" },
    // Default: 10000 on PostgreSQL, "1000,250" on SQLite.
    subscribers: { type: "string" },
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
const postgres = values.store !== "sqlite";
const counts = (values.subscribers ?? (postgres ? "10000" : "1000,250")).split(",").map(Number);
const hangingCount = Number(values.hanging);
const SITE_URL = "https://reviews.bench";
const settings: HubSettings = {
  siteUrl: SITE_URL,
  feed: `${SITE_URL}/feed.xml`,
  delayMs: Number(values["delay-ms"]),
  subscribeConcurrency: Number(values["subscribe-concurrency"]),
  concurrency: values.concurrency,
};

// Whatever happens, nothing outlives the benchmark.
const deadline = setTimeout(() => {
  console.error("bench:hub did not finish within 20 minutes; stopping.");
  void stopAll().finally(() => process.exit(1));
}, 20 * 60_000);
deadline.unref();

async function main(): Promise<number> {
  const work = mkdtempSync(path.join(tmpdir(), "bench-hub-"));
  try {
    console.log("Building two versions of the sample site (the second has one more review)...");
    const [site, cert] = await Promise.all([buildTwoSites(work, SITE_URL), writeCertificate(work)]);
    const feed = documentOf(site.next, "/feed.xml");
    console.log(
      `Topic ${settings.feed}: 50-item Atom feed, ${(feed.size / 1024).toFixed(0)} KiB; HUB_CONCURRENCY ${values.concurrency ?? "32 (default)"}; ` +
        `each subscriber answers a delivery after ${settings.delayMs} ms; ${settings.subscribeConcurrency} subscribe POSTs in flight.`,
    );
    if (postgres) {
      const replicaCounts = values.replicas.split(",").map(Number);
      console.log(
        `PostgreSQL: ${replicaCounts.join(" and ")} replica(s), ${counts[0]} subscribers, HUB_CONCURRENCY ${values.concurrency ?? "32 (default)"} per replica.`,
      );
      const replicaResults = await runReplicas(settings, replicaCounts, counts[0] ?? 10_000, site, cert, work);
      return printReplicaResults(replicaResults) > 0 ? 1 : 0;
    }
    const results: Result[] = [];
    const runs: [number, number][] = counts.map((n) => [n, 0]);
    if (hangingCount > 0) runs.push([Math.max(...counts), hangingCount]);
    for (const [n, hanging] of runs) {
      const result = await runOnce(settings, n, hanging, site, cert, work);
      results.push(result);
      printRun(result);
    }
    return printResults(results) > 0 ? 1 : 0;
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
