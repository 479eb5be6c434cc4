import { stopChild } from "./bench/children.ts";
import { runPhases } from "./bench/mcp-phases.ts";
import { printSummary } from "./bench/mcp-report.ts";
import { ensureBuild, startSidecar } from "./bench/mcp-sidecar.ts";

/**
 * `npm run bench:mcp`: the sidecar's MCP endpoint under load, on the 10k-review synthetic set, with
 * autocannon on loopback at one concurrency, in one run:
 *   (1) GET /api/reviews/search with a typical filter mix (the reference),
 *   (2) tools/call search_reviews with the same filters on one open session,
 *   (3) whole session cycles: initialize + tools/call + DELETE,
 *   (4) the sidecar's RSS before and after 10,000 initialize requests whose sessions are abandoned.
 * The sidecar runs as a child process with LOG_LEVEL=info (its output piped and drained). Requests per
 * second depend on what else shares the CPUs (load generator included); the sidecar's CPU time per
 * request, from /proc/PID/stat, does not, so both are printed.
 */
async function main(): Promise<void> {
  ensureBuild();
  const sidecar = await startSidecar();
  const stop = () => {
    void stopChild(sidecar.child).then(() => process.exit(130));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    const measured = await runPhases(sidecar);
    printSummary(measured, sidecar);
    if (measured.failures > 0) {
      console.error(`bench:mcp: ${measured.failures} failed requests (non-2xx, errors or timeouts)`);
      process.exitCode = 1;
    }
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    await stopChild(sidecar.child);
  }
}

await main();
