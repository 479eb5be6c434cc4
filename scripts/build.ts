import { readFileSync } from "node:fs";
import path from "node:path";
import { replacedBuildWarning } from "@riverbend/shared/bundle/built-for.ts";
import { MANIFEST_FILE } from "@riverbend/shared/bundle/manifest.ts";
import { ConfigError, parseConfig } from "@riverbend/shared/config/parse-config.ts";
import { buildSite } from "../src/build/build-site.ts";
import { DataValidationError } from "../src/data/problems.ts";

/** The public URL the build now in `distDir` was made for, if there is one. */
function previousSiteUrl(distDir: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(distDir, MANIFEST_FILE), "utf8")) as { site_url?: unknown };
    return typeof manifest.site_url === "string" ? manifest.site_url : undefined;
  } catch {
    return undefined;
  }
}

/** `npm run build`: validate data/, prerender into dist/, write the manifest. */
async function main(): Promise<number> {
  const started = performance.now();
  try {
    const config = parseConfig();
    const previous = previousSiteUrl(config.DIST_DIR);
    const { dataset, manifest } = await buildSite({
      root: process.cwd(),
      dataDir: config.DATA_DIR,
      outDir: config.DIST_DIR,
      siteUrl: config.SITE_URL,
    });
    const warning = replacedBuildWarning(previous, config.SITE_URL, Boolean(process.env.SITE_URL));
    if (warning) console.warn(warning);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Built ${manifest.entries.length} files from ${dataset.reviews.length} reviews into ${config.DIST_DIR}/ in ${seconds} s (site ${config.SITE_URL}).`,
    );
    return 0;
  } catch (error) {
    if (error instanceof DataValidationError || error instanceof ConfigError) {
      console.error(error.message);
      console.error("Nothing was published; the previous build output is unchanged.");
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
