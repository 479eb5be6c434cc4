/**
 * Preloaded into a benchmark's sidecar (`node --expose-gc --import tsx --import …/memory-probe.ts`);
 * the sidecar itself is unchanged. Writes to stderr, in bytes:
 * - every 20 ms `memprobe {"rss":…,"heap":…,"external":…,"buffers":…}` (process.memoryUsage());
 * - on SIGUSR2, after a forced full garbage collection, `memprobe-live {"heap":…,"external":…}`: what
 *   the process really retains at that moment, unlike heapUsed, which saws up and down between collections.
 */
const timer = setInterval(() => {
  const m = process.memoryUsage();
  process.stderr.write(
    `memprobe ${JSON.stringify({ rss: m.rss, heap: m.heapUsed, external: m.external, buffers: m.arrayBuffers })}\n`,
  );
}, 20);
timer.unref();

process.on("SIGUSR2", () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
  const m = process.memoryUsage();
  process.stderr.write(`memprobe-live ${JSON.stringify({ heap: m.heapUsed, external: m.external, forced: !!gc })}\n`);
});
