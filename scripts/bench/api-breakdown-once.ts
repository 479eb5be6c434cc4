import { createHash } from "node:crypto";
import { getHeapSpaceStatistics } from "node:v8";
import { loadIndexedBundle } from "../../sidecar/src/bundle/loaded-bundle.ts";
import { queryFingerprint } from "../../src/search/cursor.ts";
import { decodeSearchQuery, searchReviewsFromQuery } from "../../src/search/query-string.ts";
import { parseSearchParams } from "../../src/search/search-reviews.ts";

// Where a search request's time goes without HTTP: the same calls the search route makes, each timed
// in a loop over the bench's URLs. Prints one JSON line with microseconds per call.
const [distDir, pathsJson] = process.argv.slice(2);
if (!distDir || !pathsJson) throw new Error("usage: api-breakdown-once.ts DIST_DIR PATHS_JSON");
const paths = JSON.parse(pathsJson) as string[];
const { index } = loadIndexedBundle(distDir);

/** Microseconds per call: the best of several short rounds, so other work on the machine counts least. */
function perCall(run: () => unknown, rounds = 7, roundMs = 25): number {
  for (let i = 0; i < 50; i++) run();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    let calls = 0;
    const started = performance.now();
    let elapsed = 0;
    while (elapsed < roundMs) {
      for (let i = 0; i < 5; i++) run();
      calls += 5;
      elapsed = performance.now() - started;
    }
    best = Math.min(best, (elapsed * 1000) / calls);
  }
  return best;
}

const rows = paths.map((path) => {
  const query = () => new URL(path, "http://localhost").searchParams;
  const params = parseSearchParams(decodeSearchQuery(query()).args);
  const response = searchReviewsFromQuery(index, query());
  const json = JSON.stringify(response);
  return {
    path,
    total: response.total,
    bytes: Buffer.byteLength(json),
    us: {
      validate: perCall(() => parseSearchParams(decodeSearchQuery(query()).args)),
      fingerprint: perCall(() => queryFingerprint(params)),
      search: perCall(() => searchReviewsFromQuery(index, query())),
      stringify: perCall(() => JSON.stringify(response)),
      etag: perCall(() => createHash("sha256").update(Buffer.from(json)).digest("base64url")),
    },
  };
});
// The URLs in rotation, as the server sees them, and the young-generation bytes one search allocates
// in that rotation (run with --expose-gc; NaN without it).
let next = 0;
const mixUs = perCall(() =>
  searchReviewsFromQuery(index, new URL(paths[next++ % paths.length] ?? "", "http://l").searchParams),
);
const gc = (globalThis as { gc?: (options?: { type: "minor" | "major" }) => void }).gc;
const newSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_used_size ?? 0;
const allocated = paths.map((path) => {
  if (!gc) return Number.NaN;
  gc({ type: "minor" });
  const before = newSpace();
  searchReviewsFromQuery(index, new URL(path, "http://localhost").searchParams);
  const bytes = newSpace() - before;
  return bytes > 0 ? bytes : Number.NaN;
});
const allocatedKiB = allocated.sort((x, y) => x - y)[Math.floor(allocated.length / 2)] ?? Number.NaN;
console.log(JSON.stringify({ reviews: index.reviews.length, rows, mixUs, allocatedKiB: allocatedKiB / 1024 }));
