import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Dataset } from "../data/dataset.ts";
import { loadDataset } from "../data/load-dataset.ts";
import type { BuildManifest } from "../schemas/manifest.ts";
import { siteUrls } from "../site/urls.ts";
import { setBuildContext } from "./context.ts";
import { buildManifest, MANIFEST_FILE } from "./manifest.ts";
import { writePermalinkPages } from "./permalink-pages.ts";

export interface BuildOptions {
  root: string;
  dataDir: string;
  outDir: string;
  siteUrl: string;
  /** Astro's log level; builds in tests and benchmarks keep quiet. */
  logLevel?: "info" | "warn" | "error" | "silent";
}

export interface BuildResult {
  dataset: Dataset;
  manifest: BuildManifest;
}

/**
 * Validates the data, prerenders every document with Astro into a fresh folder next to `outDir`,
 * writes the manifest, and only then swaps the folder in: a failed build leaves the previous output
 * untouched. Throws DataValidationError before anything is written when the data is invalid.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const dataset = loadDataset(options.dataDir);
  const urls = siteUrls(options.siteUrl);
  setBuildContext({ dataset, urls });

  const outDir = path.resolve(options.root, options.outDir);
  const staging = path.join(path.dirname(outDir), `.${path.basename(outDir)}-staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  process.env.ASTRO_TELEMETRY_DISABLED = "1";
  const { build } = await import("astro");
  try {
    await build({
      root: options.root,
      outDir: staging,
      site: options.siteUrl,
      logLevel: options.logLevel ?? "warn",
    });
    writePermalinkPages(staging, dataset, urls);
    const manifest = buildManifest(staging, dataset, options.siteUrl);
    writeFileSync(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    swapInto(staging, outDir);
    return { dataset, manifest };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

function swapInto(staging: string, outDir: string): void {
  const previous = `${staging}-previous`;
  if (existsSync(outDir)) renameSync(outDir, previous);
  renameSync(staging, outDir);
  rmSync(previous, { recursive: true, force: true });
}
