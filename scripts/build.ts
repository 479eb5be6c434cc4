import { buildSite } from "../src/build/build-site.ts";
import { ConfigError, parseConfig } from "../src/config/parse-config.ts";
import { DataValidationError } from "../src/data/problems.ts";

/** `npm run build`: validate data/, prerender into dist/, write the manifest. */
async function main(): Promise<number> {
  const started = performance.now();
  try {
    const config = parseConfig();
    const { dataset, manifest } = await buildSite({
      root: process.cwd(),
      dataDir: config.DATA_DIR,
      outDir: config.DIST_DIR,
      siteUrl: config.SITE_URL,
    });
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
