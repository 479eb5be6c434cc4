import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FileDigest } from "@riverbend/shared/bundle/manifest.ts";
import { type Dataset, latestChange, reviewLastChanged } from "@riverbend/shared/schemas/dataset.ts";
import type { BuildManifest } from "@riverbend/shared/schemas/manifest.ts";
import type { RemovedReview } from "@riverbend/shared/schemas/removed-review.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { headerRules } from "./cdn/header-rules.ts";
import { HEADERS_FILE, renderHeadersFile } from "./cdn/headers-file.ts";
import { NGINX_REMOVED_FILE, removedHeaderRules, renderNginxRemoved } from "./cdn/removed-rules.ts";
import { buildSitemaps, type SitemapPage } from "./sitemap/sitemap.ts";

/** URL path of an HTML page file, or undefined for any other file. */
function pagePath(file: string): string | undefined {
  if (file === "index.html") return "/";
  if (file.endsWith("/index.html")) return `/${file.slice(0, -"index.html".length)}`;
  return undefined;
}

/**
 * Writes the sitemap (an index and numbered files past 50,000 pages) for the HTML pages among
 * `files`, the build's files relative to `outDir`, and returns the digests for the manifest. The
 * caller passes every file it wrote, so pages added to the build appear here without a change.
 */
export function writeSitemapFiles(
  outDir: string,
  files: Iterable<string>,
  dataset: Dataset,
  urls: SiteUrls,
): Map<string, FileDigest> {
  const byId = new Map(dataset.reviews.map((review) => [review.id, review]));
  const overall = latestChange(dataset.reviews);
  const permalink = /^\/reviews\/([^/]+)\/$/;
  const pages: SitemapPage[] = [];
  for (const file of files) {
    const urlPath = pagePath(file);
    if (!urlPath) continue;
    const review = byId.get(permalink.exec(urlPath)?.[1] ?? "");
    pages.push({ path: encodeURI(urlPath), lastmod: review ? reviewLastChanged(review) : overall });
  }
  const digests = new Map<string, FileDigest>();
  for (const [urlPath, xml] of buildSitemaps(urls.base, pages)) {
    const file = urlPath.slice(1);
    const body = Buffer.from(xml);
    mkdirSync(path.dirname(path.join(outDir, file)), { recursive: true });
    writeFileSync(path.join(outDir, file), body);
    digests.set(file, { sha256: createHash("sha256").update(body).digest("hex"), size: body.length });
  }
  return digests;
}

/**
 * Writes `_headers` for the files of a finished manifest and the nginx snippet for removed reviews;
 * both stay out of the manifest, so nothing serves them.
 */
export function writeHeadersFile(
  outDir: string,
  manifest: BuildManifest,
  urls: SiteUrls,
  removed: readonly RemovedReview[] = [],
): void {
  const rules = [...headerRules(manifest.entries, urls), ...removedHeaderRules(removed, urls)];
  writeFileSync(path.join(outDir, HEADERS_FILE), renderHeadersFile(rules));
  writeFileSync(path.join(outDir, NGINX_REMOVED_FILE), renderNginxRemoved(removed, urls));
}
