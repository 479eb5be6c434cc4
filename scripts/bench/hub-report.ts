import type { Result } from "./hub-run.ts";

/** bench:hub's output: a line per run as it ends, then the table of all runs and the targets. */

const FAN_OUT_TARGET_S = 10;

export function printRun(result: Result): void {
  const { subscribers: n, hanging } = result;
  console.log(
    `  ${n} subscribers${hanging ? ` (${hanging} never answering)` : ""}: ${result.subscribePerSecond.toFixed(0)} subscribe req/s, ` +
      `all verified after ${result.verifiedSeconds.toFixed(2)} s, fan-out ${result.fanOutSeconds.toFixed(2)} s`,
  );
}

const f = (value: number, width: number, digits = 1) => value.toFixed(digits).padStart(width);

function printTable(results: Result[]): void {
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
}

/** Prints the table and the targets; resolves with how many were missed (the exit code counts them). */
export function printResults(results: Result[]): number {
  printTable(results);
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
  return missed;
}
