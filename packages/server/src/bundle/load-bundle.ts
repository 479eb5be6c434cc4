import { readFileSync } from "node:fs";
import path from "node:path";
import { assertBuiltFor } from "@riverbend/shared/bundle/built-for.ts";
import { MANIFEST_FILE } from "@riverbend/shared/bundle/manifest.ts";
import { type BuildManifest, BuildManifestSchema, type ManifestEntry } from "@riverbend/shared/schemas/manifest.ts";
import { scanManifest } from "./manifest-scan.ts";

/** A built output folder as the sidecar sees it: its manifest, indexed by URL path. */
export interface Bundle {
  dir: string;
  manifest: BuildManifest;
  entries: ReadonlyMap<string, ManifestEntry>;
}

export class BundleError extends Error {
  override name = "BundleError";
}

/** Loads the manifest of a build; the sidecar serves only what a successful build listed. */
export function loadBundle(distDir: string, options: { pages?: boolean; siteUrl?: string } = {}): Bundle {
  const dir = path.resolve(distDir);
  const file = path.join(dir, MANIFEST_FILE);
  let raw: unknown;
  try {
    const bytes = readFileSync(file);
    // Without static serving the HTML pages (one per review) are never looked up: they are dropped
    // unparsed and unvalidated, which would otherwise cost a third of a second and 90 MB at 100k reviews.
    const scanned = options.pages === false ? scanManifest(bytes, (type) => !type.startsWith("text/html")) : undefined;
    raw = scanned ?? JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new BundleError(`Cannot read ${file}: ${(error as Error).message}. Run \`npm run build\` first.`);
  }
  const isPage = (entry: unknown) =>
    String((entry as { content_type?: unknown } | null)?.content_type ?? "").startsWith("text/html");
  const rawEntries = (raw as { entries?: unknown } | null)?.entries;
  const kept = options.pages === false && Array.isArray(rawEntries) ? rawEntries.filter((e) => !isPage(e)) : rawEntries;
  const parsed = BuildManifestSchema.safeParse({ ...(raw as object), entries: kept });
  if (!parsed.success) throw new BundleError(`${file} is not a valid build manifest: ${parsed.error.message}`);
  const manifest = parsed.data;
  if (options.siteUrl) assertBuiltFor(manifest.site_url, options.siteUrl, distDir);
  const { entries } = manifest;
  return { dir, manifest, entries: new Map(entries.map((e) => [e.path, e])) };
}
