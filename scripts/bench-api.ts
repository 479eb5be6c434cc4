import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { LoadOptions } from "./bench/api-load.ts";
import { runPhases } from "./bench/api-phases.ts";
import { stopAll } from "./bench/api-process.ts";
import { printReport } from "./bench/api-report.ts";

/**
 * `npm run bench:api`: loads the sidecar on loopback with autocannon, against a bare node:http ceiling
 * serving a body of the same size: a fixed search mix, new queries on every request (at 1k, 10k and
 * 100k reviews) and since 304; then start-up and memory after 100,000 distinct queries at 100k. Every
 * server runs in a child process of its own, its output written to a file; all are stopped on exit.
 */
const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    rebuild: { type: "boolean", default: false },
  },
});
const load: LoadOptions = {
  connections: Number(values.connections),
  duration: Number(values.duration),
  warmup: Number(values.warmup),
};
const work = path.resolve(".cache/bench");
mkdirSync(path.join(work, "api-state"), { recursive: true });

async function main() {
  const measured = await runPhases(work, load, values.rebuild);
  printReport(measured, load);
  // Target misses are results; wrong statuses or errors mean the numbers cannot be trusted.
  if (measured.problems.length > 0) process.exitCode = 1;
}

process.once("SIGINT", () => {
  void stopAll().then(() => process.exit(130));
});
try {
  await main();
} finally {
  await stopAll();
}
