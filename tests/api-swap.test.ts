/**
 * A new build swapped in while thousands of requests are in flight, and the static documents
 * between a build landing and the store's next reload.
 */
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectInvalidRequest, type Server, SITE, silent } from "./support/api-server.ts";
import { listen } from "./support/http.ts";
import { ROOT, runBuild } from "./support/run-build.ts";

const EXTRA_REVIEWS: Review[] = ["a", "b", "c"].map((letter, i) => ({
  id: `2026-05-0${i + 1}-swap-${letter}`,
  date: `2026-05-0${i + 1}`,
  rating: 5 - i,
  title: `Swap test review ${letter.toUpperCase()}`,
  text: `Written by the swap test (${letter}): Kevin T. replaced a corroded shutoff valve under the bathroom sink.`,
  author: { name: `Swap ${letter.toUpperCase()}.` },
  verified: true,
  verification: { method: "job_record" },
  source: "direct",
  technicians: ["Kevin T."],
  services: ["faucet-fixture"],
  service_area: "davis",
}));

/** A copy of data/ with the three extra reviews. */
function modifiedData(dir: string): string {
  cpSync(path.join(ROOT, "data"), dir, { recursive: true });
  for (const review of EXTRA_REVIEWS) {
    writeFileSync(path.join(dir, "reviews", `${review.id}.json`), `${JSON.stringify(review, null, 2)}\n`);
  }
  return dir;
}

describe("a new build swapped in under load", () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), "reviews-swap-"));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("serves the old data or the new, never a failure or a mix, and the new data after the swap", async () => {
    const dist = path.join(work, "dist");
    cpSync(inject("sampleDist"), dist, { recursive: true });
    const data = modifiedData(path.join(work, "data"));
    const swapStore = new BundleStore(dist, silent);
    const app = await listen(
      createApp({ config: { SITE_URL: SITE, SERVE_STATIC: false }, store: swapStore, logger: silent }),
    );
    const oldCount = swapStore.current.index.count;
    const newCount = oldCount + EXTRA_REVIEWS.length;
    const oldVersion = swapStore.current.index.version;

    const CONCURRENCY = 20;
    const START_BUILD_AFTER = 300;
    const MIN_TOTAL = 2000;
    const MIN_AFTER_SWAP = 400;
    const MAX_TOTAL = 40_000;

    let started = 0;
    let buildStarted = false;
    let swapped = false;
    let buildError: unknown;
    let startedDuringBuild = 0;
    let startedAfterSwap = 0;
    const failures: string[] = [];
    const seen = { since: new Map<number, number>(), search: new Map<number, number>() };
    const bump = (map: Map<number, number>, key: number) => map.set(key, (map.get(key) ?? 0) + 1);
    let cursorBeforeSwap: string | undefined;

    /** Builds the new data into dist/ and, while that runs, calls reload() until it swaps. */
    const startBuild = async () => {
      buildStarted = true;
      let finished = false;
      const run = runBuild({ DATA_DIR: data, DIST_DIR: dist, SITE_URL: SITE }).finally(() => {
        finished = true;
      });
      // Polling during the build also meets the moments when dist/ is being renamed.
      while (!swapStore.reload()) {
        if (finished) {
          const result = await run;
          if (result.code !== 0) throw new Error(`build failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
          if (swapStore.reload()) break;
          throw new Error("the new build landed but reload() never swapped it in");
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      swapped = true;
      const result = await run;
      if (result.code !== 0) throw new Error(`build failed (${result.code}):\n${result.stderr}`);
    };
    let buildDone: Promise<void> | undefined;
    const kickOff = () => {
      buildDone = startBuild().catch((error) => {
        buildError = error;
      });
    };

    const bodyOfTag = new Map<string, string>();
    const worker = async (n: number) => {
      for (let turn = 0; ; turn++) {
        if (started >= MAX_TOTAL || buildError !== undefined) return;
        if (swapped && startedAfterSwap >= MIN_AFTER_SWAP && started >= MIN_TOTAL) return;
        started++;
        if (!buildStarted && started >= START_BUILD_AFTER) kickOff();
        const afterSwap = swapped;
        if (afterSwap) startedAfterSwap++;
        else if (buildStarted) startedDuringBuild++;
        const kind = (n + turn) % 2 === 0 ? "since" : "search";
        const url = kind === "since" ? "/api/reviews/since/2020-01-01" : "/api/reviews/search?limit=5&sort=highest";
        let status = 0;
        try {
          const response = await fetch(`${app.base}${url}`, { headers: { "Accept-Encoding": "identity" } });
          status = response.status;
          const bytes = new Uint8Array(await response.arrayBuffer());
          if (status !== 200 && status !== 304) {
            failures.push(`${url} -> ${status} ${Buffer.from(bytes).toString("utf8").slice(0, 200)}`);
            continue;
          }
          // The ETag is derived from the data version and the query: one tag, one body, across the swap.
          const tag = response.headers.get("etag") ?? "";
          const text = Buffer.from(bytes).toString("utf8");
          if ((bodyOfTag.get(tag) ?? text) !== text) failures.push(`${url}: ETag ${tag} came with two bodies`);
          bodyOfTag.set(tag, text);
          const body = JSON.parse(Buffer.from(bytes).toString("utf8"));
          const count = kind === "since" ? body.count : body.total;
          bump(seen[kind], count);
          if (kind === "since" && body.count !== body.reviews.length) {
            failures.push(`since: count ${body.count} but ${body.reviews.length} reviews`);
          }
          if (count !== oldCount && count !== newCount) failures.push(`${url}: ${count} reviews, neither old nor new`);
          if (afterSwap && count !== newCount) failures.push(`${url}: old data (${count}) after the swap`);
          if (kind === "search" && !buildStarted) cursorBeforeSwap ??= body.next_cursor;
        } catch (error) {
          failures.push(`${url} -> ${status} ${(error as Error).message}`);
        }
      }
    };

    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, (_, n) => worker(n)));
      if (!buildStarted) kickOff();
      await buildDone;
      if (buildError !== undefined) throw buildError;

      expect(failures.slice(0, 20)).toEqual([]);
      expect(swapped).toBe(true);
      expect(started).toBeGreaterThanOrEqual(MIN_TOTAL);
      expect(started).toBeLessThanOrEqual(MAX_TOTAL);
      expect(startedDuringBuild, "requests were in flight while the build landed").toBeGreaterThan(0);
      expect(seen.since.get(oldCount) ?? 0, "old data served before the swap").toBeGreaterThan(0);
      expect(seen.since.get(newCount) ?? 0, "new data served after the swap").toBeGreaterThan(0);
      expect([...seen.since.keys()].sort()).toEqual([oldCount, newCount].sort());
      expect([...seen.search.keys()].every((count) => count === oldCount || count === newCount)).toBe(true);

      // After the swap: the new data everywhere, and cursors of the old data refused.
      expect(swapStore.current.index.version).not.toBe(oldVersion);
      const since = await (await fetch(`${app.base}/api/reviews/since/2026-05-01`)).json();
      expect(since.reviews.map((r: Review) => r.id)).toEqual(
        expect.arrayContaining(EXTRA_REVIEWS.map((review) => review.id)),
      );
      const health = await (await fetch(`${app.base}/healthz`)).json();
      expect(health.reviews).toBe(newCount);
      expect(cursorBeforeSwap).toEqual(expect.any(String));
      const stale = await fetch(`${app.base}/api/reviews/search?limit=5&sort=highest&cursor=${cursorBeforeSwap}`);
      expect(await expectInvalidRequest(stale)).toEqual(["cursor"]);
      // Nothing more to load.
      expect(swapStore.reload()).toBe(false);
    } finally {
      await app.close();
    }
  }, 180_000);

  describe("static documents between a build landing and the next reload", () => {
    let staticStore: BundleStore;
    let app: Server;
    let oldEtag: string | undefined;
    let landed: { etag: string | null; body: string };
    beforeAll(async () => {
      const dist = path.join(work, "static-dist");
      cpSync(inject("sampleDist"), dist, { recursive: true });
      const data = modifiedData(path.join(work, "static-data"));
      staticStore = new BundleStore(dist, silent);
      oldEtag = staticStore.current.bundle.entries.get("/reviews.json")?.etag;
      app = await listen(
        createApp({ config: { SITE_URL: SITE, SERVE_STATIC: true }, store: staticStore, logger: silent }),
      );
      const run = await runBuild({ DATA_DIR: data, DIST_DIR: dist, SITE_URL: SITE });
      if (run.code !== 0) throw new Error(`build failed (${run.code}):\n${run.stderr}`);
      // The build has landed; the store has not polled yet (as between two RELOAD_INTERVAL_MS ticks).
      const response = await fetch(`${app.base}/reviews.json`, { headers: { "Accept-Encoding": "identity" } });
      landed = { etag: response.headers.get("etag"), body: await response.text() };
    }, 120_000);
    afterAll(() => app.close());

    it("still answers, and with the new build's bytes", () => {
      expect(oldEtag).toMatch(/^"[0-9a-f]{32}"$/);
      for (const review of EXTRA_REVIEWS) expect(landed.body).toContain(review.id);
    });

    // A regression test: a build lands by renaming its folder onto DIST_DIR, and until the store's
    // next poll the static handler once answered from the old manifest (ETag, Last-Modified) while
    // reading the new bytes: half of each build, which a cache then keeps under the old validator.
    it("never pairs the validators of one build with the bytes of another", () => {
      const sha = createHash("sha256").update(landed.body).digest("hex");
      expect(landed.etag).toBe(`"${sha.slice(0, 32)}"`);
    });
  });
});
