import { statSync } from "node:fs";
import path from "node:path";
import { loadBundle } from "../../sidecar/src/bundle/load-bundle.ts";
import { loadIndexedBundle } from "../../sidecar/src/bundle/loaded-bundle.ts";
import { readReviewsDocument } from "../../sidecar/src/bundle/read-reviews.ts";
import { buildReviewIndex } from "../../src/search/review-index.ts";

// The sidecar's own load of a build, in a fresh process: first exactly what it does at start-up as
// deployed (loadIndexedBundle without pages), then the same steps one by one to see which one costs
// time and which one keeps memory. Run with --expose-gc for the retained sizes. Prints one JSON line.
const [distDir] = process.argv.slice(2);
if (!distDir) throw new Error("usage: api-load-once.ts DIST_DIR");
const importedMs = performance.now();
const gc = (globalThis as { gc?: () => void }).gc;
const MiB = 1024 * 1024;

const time = <T>(run: () => T): [T, number] => {
  const started = performance.now();
  const value = run();
  return [value, performance.now() - started];
};
/** Heap in use after a full collection (NaN without --expose-gc). */
const retained = () => {
  if (!gc) return Number.NaN;
  gc();
  return process.memoryUsage().heapUsed / MiB;
};

const rssBefore = process.memoryUsage().rss / MiB;
const [loaded, loadMs] = time(() => loadIndexedBundle(distDir, { pages: false }));
const rssAfterLoad = process.memoryUsage().rss / MiB;

// The same steps again (the first load stays referenced, so each step's retained heap is its own).
const heap0 = retained();
const [bundle, manifestMs] = time(() => loadBundle(distDir, { pages: false }));
const heap1 = retained();
const entry = bundle.entries.get("/reviews.json");
if (!entry) throw new Error("no /reviews.json in the manifest");
const file = path.join(bundle.dir, entry.file);
// Read, hashed, parsed and its strings shared in one pass of chunks (read-reviews.ts).
const [document, readMs] = time(() => readReviewsDocument(file, entry.sha256));
const heap2 = retained();
const [index, indexMs] = time(() => buildReviewIndex(document, bundle.manifest.data_sha256));
const heap3 = retained();

console.log(
  JSON.stringify({
    reviews: loaded.index.reviews.length,
    indexedAgain: index.reviews.length,
    manifestEntries: bundle.manifest.entries.length,
    reviewsJsonMiB: statSync(file).size / MiB,
    importedMs,
    loadMs,
    steps: { manifestMs, readMs, indexMs },
    rss: { before: rssBefore, afterLoad: rssAfterLoad },
    retainedMiB: { manifest: heap1 - heap0, reviews: heap2 - heap1, index: heap3 - heap2 },
  }),
);
