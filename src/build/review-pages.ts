import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeSync, writevSync } from "node:fs";
import path from "node:path";
import type { FileDigest } from "@riverbend/shared/bundle/manifest.ts";
import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { browserSite } from "../site/browser/listing-page.ts";
import { allListings, listingPath, type TopicListing } from "../site/browser/listings.ts";
import { permalinkPage } from "../site/browser/permalink-page.ts";
import { removedPage } from "../site/browser/removed-page.ts";

/*
 * The review browser and the permalink pages are written by the build, outside Astro's router:
 * Astro's per-route cost (about 1 ms a page here) made 100k permalink pages take over 100 s. They
 * use the same markup functions as the Astro home page, so the site looks the same throughout. The
 * pages' markup lives in src/site/browser; this file only writes and hashes it.
 */

/**
 * Writes one page, given as chunks, to `<folder>/index.html` with one writev and records its digest
 * for the manifest. Joining the chunks first would copy every page once more and leave it to the
 * garbage collector.
 */
function writePage(outDir: string, folder: string, chunks: readonly Buffer[], digests: Map<string, FileDigest>): void {
  mkdirSync(path.join(outDir, folder), { recursive: true });
  const file = `${folder}/index.html`;
  const hash = createHash("sha256");
  let size = 0;
  for (const chunk of chunks) {
    hash.update(chunk);
    size += chunk.length;
  }
  const fd = openSync(path.join(outDir, file), "w");
  try {
    // writev may stop short (a signal, a nearly full disk): finish with plain writes until done.
    const written = writevSync(fd, chunks);
    if (written < size) {
      let rest = Buffer.concat(chunks).subarray(written);
      while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
    }
  } finally {
    closeSync(fd);
  }
  digests.set(file, { sha256: hash.digest("hex"), size });
}

/**
 * Writes the review browser: every page of /reviews/ and of each single-filter listing (rating,
 * technician, service, area, and each insights topic). Returns the pages' digests, keyed by file, so the manifest need not
 * read them back and the caller knows every page written.
 */
export function writeBrowserPages(
  outDir: string,
  dataset: Dataset,
  urls: SiteUrls,
  topics: readonly TopicListing[] = [],
): Map<string, FileDigest> {
  const digests = new Map<string, FileDigest>();
  const site = browserSite(dataset, urls, topics);
  for (const listing of allListings(site.listings)) {
    const pages = site.pages(listing);
    for (let page = 1; page <= pages; page++) {
      writePage(outDir, listingPath(listing, page).slice(1, -1), site.page(listing, page), digests);
    }
  }
  return digests;
}

/**
 * Writes every permalink page and returns their digests. Synchronously: the cost is the file
 * system's, and concurrent writes do not lower it.
 */
export function writePermalinkPages(outDir: string, dataset: Dataset, urls: SiteUrls): Map<string, FileDigest> {
  const digests = new Map<string, FileDigest>();
  dataset.reviews.forEach((review, index) => {
    writePage(outDir, `reviews/${review.id}`, permalinkPage(dataset, urls, index), digests);
  });
  return digests;
}

/** Writes the "removed on DATE" page at each removed review's permalink and returns their digests. */
export function writeRemovedPages(outDir: string, dataset: Dataset, urls: SiteUrls): Map<string, FileDigest> {
  const digests = new Map<string, FileDigest>();
  for (const removed of dataset.removed) {
    writePage(outDir, `reviews/${removed.id}`, removedPage(dataset.business.name, urls, removed), digests);
  }
  return digests;
}
