import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BuildManifest } from "@riverbend/shared/schemas/manifest.ts";
import { PAGE_SIZE } from "@riverbend/shared/web/pagination.ts";
import { afterAll, describe, expect, inject, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { allListings, buildListings, listingPath } from "../src/site/browser/listings.ts";
import { TEST_SITE_URL } from "./support/global-setup.ts";
import { runBuild } from "./support/run-build.ts";

const work = mkdtempSync(path.join(tmpdir(), "reviews-determinism-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function files(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(dir, path.join(prefix, e.name)) : [path.join(prefix, e.name)],
  );
}

const manifestOf = (dist: string): BuildManifest =>
  JSON.parse(readFileSync(path.join(dist, "build-manifest.json"), "utf8"));

async function build(dataDir: string, dist: string) {
  const run = await runBuild({ DATA_DIR: dataDir, DIST_DIR: dist, SITE_URL: TEST_SITE_URL });
  expect(run.code, run.stderr).toBe(0);
}

describe("deterministic builds", () => {
  it("two builds of the same data are byte-identical, manifest included", async () => {
    const first = inject("sampleDist");
    const second = path.join(work, "second");
    await build("data", second);
    const names = files(first).sort();
    expect(files(second).sort()).toEqual(names);
    expect(names.length).toBeGreaterThan(270);
    for (const name of names) {
      const same = readFileSync(path.join(first, name)).equals(readFileSync(path.join(second, name)));
      expect(same, name).toBe(true);
    }
  });

  it("editing one old review changes only the documents that show it", async () => {
    const data = path.join(work, "data");
    cpSync("data", data, { recursive: true });
    const before = manifestOf(inject("sampleDist"));
    // The 120th newest review is in no feed, not on the home page and on page 3 of the browser.
    const reviews = JSON.parse(readFileSync(path.join(inject("sampleDist"), "reviews.json"), "utf8")).reviews;
    const target = reviews[119];
    const file = path.join(data, "reviews", `${target.id}.json`);
    const review = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...review, text: `${review.text} (Edited for a typo.)` }, null, 2));

    const dist = path.join(work, "edited");
    await build(data, dist);
    const after = manifestOf(dist);
    const hashes = new Map(before.entries.map((e) => [e.path, e.sha256]));
    const changed = after.entries.filter((e) => hashes.get(e.path) !== e.sha256).map((e) => e.path);
    // The browser pages that show it: page 3 of /reviews/ and one page of each filter listing it is in.
    const dataset = loadDataset("data");
    const position = dataset.reviews.findIndex((r) => r.id === target.id);
    const listed = allListings(buildListings(dataset)).flatMap((listing) => {
      const index = listing.reviews.indexOf(position);
      return index < 0 ? [] : [listingPath(listing, Math.floor(index / PAGE_SIZE) + 1)];
    });
    expect(listed).toContain("/reviews/page/3/");
    // The topic pages that list it (see tests/insights-topics.test.ts for what a topic lists).
    const topicDir = path.join(inject("sampleDist"), "reviews", "topic");
    const onTopics = readdirSync(topicDir, { recursive: true })
      .map(String)
      .filter(
        (f) =>
          f.endsWith("index.html") && readFileSync(path.join(topicDir, f), "utf8").includes(`/reviews/${target.id}/"`),
      )
      .map((f) => `/reviews/topic/${path.dirname(f)}/`);
    listed.push(...onTopics);
    // The API page's search example carries a next_cursor, which names the data version on purpose.
    expect(changed.sort()).toEqual(["/api/", "/reviews.json", `/reviews/${target.id}/`, ...listed].sort());
    expect(after.data_sha256).not.toBe(before.data_sha256);
  });
});

describe("the build manifest", () => {
  it("lists every file of the output folder exactly once", () => {
    const dist = inject("sampleDist");
    const manifest = manifestOf(dist);
    const listed = manifest.entries.map((e) => e.file);
    // _headers and nginx-removed.conf are host configuration for a CDN, written after the manifest so the
    // sidecar never serves them; the sidecar's search index is listed apart from the published entries,
    // with its own digest.
    const index = manifest.search_index;
    expect(index?.sha256).toBe(
      createHash("sha256")
        .update(readFileSync(path.join(dist, index?.file ?? "")))
        .digest("hex"),
    );
    const hostFiles = ["build-manifest.json", "_headers", "nginx-removed.conf", index?.file];
    const onDisk = files(dist).filter((f) => !hostFiles.includes(f));
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(onDisk.sort());
    const reviewCount = JSON.parse(readFileSync(path.join(dist, "reviews.json"), "utf8")).reviews.length;
    expect(
      listed.filter((f) => /^reviews\/[^/]+\/index\.html$/.test(f) && !f.startsWith("reviews/page/")),
    ).toHaveLength(reviewCount);
  });
});
