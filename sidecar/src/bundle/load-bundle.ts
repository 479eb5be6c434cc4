import { readFileSync } from "node:fs";
import path from "node:path";
import { MANIFEST_FILE } from "../../../src/build/manifest.ts";
import { type BuildManifest, BuildManifestSchema, type ManifestEntry } from "../../../src/schemas/manifest.ts";

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
export function loadBundle(distDir: string, options: { pages?: boolean } = {}): Bundle {
  const dir = path.resolve(distDir);
  const file = path.join(dir, MANIFEST_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new BundleError(`Cannot read ${file}: ${(error as Error).message}. Run \`npm run build\` first.`);
  }
  const parsed = BuildManifestSchema.safeParse(raw);
  if (!parsed.success) throw new BundleError(`${file} is not a valid build manifest: ${parsed.error.message}`);
  // Without static serving the HTML pages (one per review) are never looked up: keeping 100k
  // entries would cost about 50 MB for nothing.
  const entries =
    options.pages === false
      ? parsed.data.entries.filter((e) => !e.content_type.startsWith("text/html"))
      : parsed.data.entries;
  const manifest = { ...parsed.data, entries };
  return { dir, manifest, entries: new Map(entries.map((e) => [e.path, e])) };
}
