import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { InsightsDocument } from "@riverbend/shared/schemas/insights.ts";
import { IndexFileError, readSearchIndex, type SearchIndex } from "@riverbend/shared/search/search-index.ts";
import { httpDate } from "@riverbend/shared/web/time.ts";
import { type AnswerCache, type AskedOnce, createAnswerCache, createAskedOnce } from "../routes/answer-cache.ts";
import { readHeaders } from "../routes/send-answer.ts";
import { type Bundle, BundleError, loadBundle } from "./load-bundle.ts";

/** One build, loaded and indexed: everything a request needs, swapped as a unit. */
export interface LoadedBundle {
  bundle: Bundle;
  index: SearchIndex;
  insights: InsightsDocument;
  /** HTTP date of the latest change in the data, for Last-Modified. */
  lastModified: string | undefined;
  /** Recent read answers of this build, bounded in bytes (dropped with the build). */
  answers: AnswerCache;
  /** Request targets asked once whose answers were not kept (bounded in entries). */
  askedOnce: AskedOnce;
  /** Cache-Control, Last-Modified and Vary of every read answer of this build. */
  readHeaders: Readonly<Record<string, string>>;
}

/** The text of a published document of the build, by URL path; undefined if the build has none. */
export function readDocument(bundle: Bundle, urlPath: string): string | undefined {
  const entry = bundle.entries.get(urlPath);
  return entry ? readFileSync(path.join(bundle.dir, entry.file), "utf8") : undefined;
}

/**
 * Loads a build: its manifest and the search index the build wrote beside the documents, checked
 * against the manifest's sha256 and data version (so a file caught mid-swap is refused, never
 * half-read), and viewed in place: nothing is parsed per review.
 */
export function loadIndexedBundle(distDir: string, options: { pages?: boolean; siteUrl?: string } = {}): LoadedBundle {
  const bundle = loadBundle(distDir, options);
  const listed = bundle.manifest.search_index;
  if (!listed) throw new BundleError(`${bundle.dir}'s manifest lists no search index; rebuild it (npm run build).`);
  const file = path.join(bundle.dir, listed.file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new BundleError(`Cannot read ${file}: ${(error as Error).message}. Rebuild it (npm run build).`);
  }
  if (createHash("sha256").update(bytes).digest("hex") !== listed.sha256) {
    throw new BundleError(`${file} does not match its manifest (a build may be in progress).`);
  }
  let index: SearchIndex;
  try {
    index = readSearchIndex(bytes);
  } catch (error) {
    if (!(error instanceof IndexFileError)) throw error;
    throw new BundleError(`${file} ${error.message}.`);
  }
  if (index.dataSha256 !== bundle.manifest.data_sha256) {
    throw new BundleError(`${file} was built from other data than its manifest names; rebuild it.`);
  }
  const lastModified = index.lastChanged ? httpDate(index.lastChanged, index.timeZone) : undefined;
  return {
    bundle,
    index,
    insights: JSON.parse(readDocument(bundle, "/insights.json") ?? "null") as InsightsDocument,
    lastModified,
    answers: createAnswerCache(),
    askedOnce: createAskedOnce(),
    readHeaders: readHeaders(lastModified),
  };
}
