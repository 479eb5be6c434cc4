import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildManifest, listFiles, MANIFEST_FILE, serializeManifest } from "@riverbend/shared/bundle/manifest.ts";
import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { BuildManifest } from "@riverbend/shared/schemas/manifest.ts";
import { SEARCH_INDEX_FILE } from "@riverbend/shared/search/index-format.ts";
import { type TopicReviews, writeSearchIndex } from "@riverbend/shared/search/write-index.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { loadDataset } from "../data/load-dataset.ts";
import { writeHeadersFile, writeSitemapFiles } from "../discovery/write-build-files.ts";
import { computeInsights } from "../insights/step/compute-insights.ts";
import { buildReviewsDocument } from "../reviews-document/reviews-document.ts";
import { CONTEXT_FILE_DEFINE, writeBuildContext } from "./context.ts";
import { writeReviewCards } from "./review-cards.ts";
import { writeBrowserPages, writePermalinkPages, writeRemovedPages } from "./review-pages.ts";

export interface BuildOptions {
  root: string;
  dataDir: string;
  outDir: string;
  siteUrl: string;
  /** Astro's log level; builds in tests and benchmarks keep quiet. */
  logLevel?: "info" | "warn" | "error" | "silent";
  /** Where rendered social cards are kept across builds; `<root>/.cache/og-cards` by default. */
  cardCacheDir?: string;
}

export interface BuildResult {
  dataset: Dataset;
  manifest: BuildManifest;
  /** Seconds spent in each phase, for `npm run build` and the benchmark. */
  timings: {
    load: number;
    insights: number;
    context: number;
    astro: number;
    browser: number;
    permalinks: number;
    cards: number;
    manifest: number;
  };
  /** The reviews' own social cards: rendered in this build, or taken from the card cache. */
  cards: { rendered: number; reused: number };
}

const since = (start: number) => (performance.now() - start) / 1000;

/**
 * Validates the data, prerenders every document with Astro into a fresh folder next to `outDir`,
 * writes the manifest, and only then swaps the folder in: a failed build leaves the previous output
 * untouched. Throws DataValidationError before anything is written when the data is invalid.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  let phase = performance.now();
  const dataset = loadDataset(options.dataDir);
  const timings = {
    load: since(phase),
    insights: 0,
    context: 0,
    astro: 0,
    browser: 0,
    permalinks: 0,
    cards: 0,
    manifest: 0,
  };
  const urls = siteUrls(options.siteUrl);
  phase = performance.now();
  const insights = await computeInsights({ root: options.root, dataDir: options.dataDir, dataset, urls });
  timings.insights = since(phase);
  for (const note of insights.notes) console.warn(note);

  const outDir = path.resolve(options.root, options.outDir);
  // The staging folder lies inside the project: Astro keeps its prerender chunks in `.prerender`
  // under the output folder only when that is inside the working directory (otherwise in one shared
  // `.astro/`, where two builds at once would overwrite each other's chunks).
  const staging = path.join(path.resolve(options.root), `.dist-staging-${process.pid}-${++buildCount}`);
  rmSync(staging, { recursive: true, force: true });
  process.env.ASTRO_TELEMETRY_DISABLED = "1";
  phase = performance.now();
  const contextFile = `${staging}.context`;
  const { build } = await import("astro");
  try {
    writeBuildContext(contextFile, {
      dataset,
      urls,
      insights: insights.document,
      topicListings: insights.topicListings,
    });
    timings.context = since(phase);
    phase = performance.now();
    await build({
      root: options.root,
      outDir: staging,
      site: options.siteUrl,
      logLevel: options.logLevel ?? "warn",
      vite: { define: { [CONTEXT_FILE_DEFINE]: JSON.stringify(contextFile) } },
    });
    rmSync(contextFile, { force: true });
    timings.astro = since(phase);
    phase = performance.now();
    const astroFiles = listFiles(staging);
    const browser = writeBrowserPages(staging, dataset, urls, insights.topicListings);
    timings.browser = since(phase);
    phase = performance.now();
    const permalinks = writePermalinkPages(staging, dataset, urls);
    timings.permalinks = since(phase);
    phase = performance.now();
    const cardCacheDir = options.cardCacheDir ?? path.join(path.resolve(options.root), ".cache", "og-cards");
    const cards = writeReviewCards(staging, dataset, cardCacheDir);
    timings.cards = since(phase);
    phase = performance.now();
    const pages = new Map([...browser, ...permalinks]);
    const clash = astroFiles.find((file) => pages.has(file));
    if (clash) throw new Error(`${clash} is written both by an Astro page and by the review pages`);
    // The sitemap lists every page written so far, so it comes after all of them.
    for (const [file, digest] of writeSitemapFiles(staging, [...astroFiles, ...pages.keys()], dataset, urls)) {
      pages.set(file, digest);
    }
    // Removed reviews' pages come after the sitemap: they are served, never listed.
    for (const [file, digest] of writeRemovedPages(staging, dataset, urls)) {
      if (pages.has(file)) throw new Error(`${file} is both a review and a removed review`);
      pages.set(file, digest);
    }
    for (const [file, digest] of cards.digests) pages.set(file, digest);
    const manifest = {
      ...buildManifest(staging, astroFiles, pages, dataset, options.siteUrl),
      search_index: writeIndexFile(staging, dataset, insights.topicListings),
    };
    writeFileSync(path.join(staging, MANIFEST_FILE), serializeManifest(manifest));
    writeHeadersFile(staging, manifest, urls, dataset.removed);
    swapInto(staging, outDir);
    timings.manifest = since(phase);
    return { dataset, manifest, timings, cards: { rendered: cards.rendered, reused: cards.reused } };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    rmSync(contextFile, { force: true });
    throw error;
  }
}

let buildCount = 0;

/** The sidecar's search index, beside the documents but not among them (it is not published). */
function writeIndexFile(dir: string, dataset: Dataset, topics: readonly TopicReviews[]) {
  // Topic listings hold dataset positions, which are the document's (both newest first).
  const bytes = writeSearchIndex(buildReviewsDocument(dataset), dataset.sourceSha256, topics);
  writeFileSync(path.join(dir, SEARCH_INDEX_FILE), bytes);
  return { file: SEARCH_INDEX_FILE, sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
}

/**
 * Replaces `outDir` with `staging` by renames, so readers see the old or the new build. When
 * `outDir` is on another file system, the build is first copied next to it.
 */
function swapInto(staging: string, outDir: string): void {
  mkdirSync(path.dirname(outDir), { recursive: true });
  let incoming = staging;
  try {
    const beside = path.join(path.dirname(outDir), `.${path.basename(outDir)}-incoming-${process.pid}`);
    if (path.dirname(staging) !== path.dirname(outDir)) {
      rmSync(beside, { recursive: true, force: true });
      try {
        renameSync(staging, beside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
        cpSync(staging, beside, { recursive: true });
        rmSync(staging, { recursive: true, force: true });
      }
      incoming = beside;
    }
    const previous = `${incoming}-previous`;
    if (existsSync(outDir)) renameSync(outDir, previous);
    renameSync(incoming, outDir);
    rmSync(previous, { recursive: true, force: true });
  } catch (error) {
    rmSync(incoming, { recursive: true, force: true });
    throw error;
  }
}
