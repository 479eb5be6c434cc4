import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Dataset, latestChange } from "../schemas/dataset.ts";
import type { BuildManifest, ManifestEntry } from "../schemas/manifest.ts";
import { httpDate } from "../web/time.ts";
import { contentTypeFor } from "./content-types.ts";

export const MANIFEST_FILE = "build-manifest.json";

/**
 * One entry per line: readable and diffable, and about half the size of indented JSON, which
 * matters when the sidecar parses 100k entries at start-up.
 */
export function serializeManifest(manifest: BuildManifest): string {
  const { entries, ...head } = manifest;
  const lines = entries.map((entry) => JSON.stringify(entry));
  return `${JSON.stringify(head).slice(0, -1)},"entries":[\n${lines.join(",\n")}\n]}\n`;
}

/** Every file below `dir` (except the manifest), as relative paths with forward slashes. */
export function listFiles(dir: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...listFiles(dir, relative));
    else if (entry.isFile() && relative !== MANIFEST_FILE) files.push(relative);
  }
  return files;
}

/** URL path a file is served at: `reviews/index.html` is `/reviews/`. */
export function urlPathOf(file: string): string {
  if (file === "index.html") return "/";
  if (file.endsWith("/index.html")) return `/${file.slice(0, -"index.html".length)}`;
  return `/${file}`;
}

/**
 * Last-Modified comes from the data, never from the clock, so rebuilds are byte-identical: a removed
 * review's page changes on its removal date; every other document, permalink pages included (they
 * show the business's rating), with the latest change in the data.
 */
function lastModifiedDates(dataset: Dataset): (urlPath: string) => string | undefined {
  const permalink = /^\/reviews\/([^/]+)\/$/;
  const removed = new Map(dataset.removed.map((r) => [r.id, r.removed]));
  const overall = latestChange(dataset.reviews);
  return (urlPath) => {
    const match = permalink.exec(urlPath);
    const id = match?.[1] ? decodeURIComponent(match[1]) : undefined;
    return (id && removed.get(id)) ?? overall;
  };
}

export interface FileDigest {
  sha256: string;
  size: number;
}

function digestOf(file: string): FileDigest {
  const body = readFileSync(file);
  return { sha256: createHash("sha256").update(body).digest("hex"), size: body.length };
}

/**
 * Describes every file of a finished build: `files` are read and hashed, `known` (pages the build
 * wrote itself, with their digests) are taken as they are. Walking 100k page folders back would cost
 * seconds, so the caller lists what Astro wrote before adding its own pages.
 */
export function buildManifest(
  outDir: string,
  files: readonly string[],
  known: ReadonlyMap<string, FileDigest>,
  dataset: Dataset,
  siteUrl: string,
): BuildManifest {
  const lastChanged = lastModifiedDates(dataset);
  const tz = dataset.business.time_zone;
  const entries: ManifestEntry[] = [...files, ...known.keys()].sort().map((file) => {
    const { sha256, size } = known.get(file) ?? digestOf(path.join(outDir, file));
    const urlPath = urlPathOf(file);
    const changed = lastChanged(urlPath);
    return {
      path: urlPath,
      file,
      sha256,
      size,
      content_type: contentTypeFor(urlPath, file),
      etag: `"${sha256.slice(0, 32)}"`,
      last_modified: changed ? httpDate(changed, tz) : new Date(0).toUTCString(),
    };
  });
  return { version: 1, site_url: siteUrl, data_sha256: dataset.sourceSha256, entries };
}
