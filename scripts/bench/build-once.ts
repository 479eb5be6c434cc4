import { buildSite } from "../../src/build/build-site.ts";

// One measured build in its own process, so peak RSS belongs to this build alone.
const [dataDir, outDir, cardCacheDir] = process.argv.slice(2);
if (!dataDir || !outDir) throw new Error("usage: build-once.ts DATA_DIR OUT_DIR [CARD_CACHE_DIR]");
const started = performance.now();
const { dataset, manifest, timings, cards } = await buildSite({
  root: process.cwd(),
  dataDir,
  outDir,
  siteUrl: "https://reviews.example.com",
  logLevel: "error",
  ...(cardCacheDir && { cardCacheDir }),
});
const seconds = (performance.now() - started) / 1000;
const peakMiB = process.resourceUsage().maxRSS / 1024;

// Pages by kind, from the manifest: the browser's own pages, its filter listings, the permalinks.
const pages = { browser: 0, filters: 0, permalinks: 0 };
for (const { path } of manifest.entries) {
  if (/^\/reviews\/(page\/\d+\/)?$/.test(path)) pages.browser++;
  else if (/^\/reviews\/(rating|technician|service|area)\/[^/]+\/(page\/\d+\/)?$/.test(path)) pages.filters++;
  else if (/^\/reviews\/[^/]+\/$/.test(path)) pages.permalinks++;
}
console.log(
  JSON.stringify({
    reviews: dataset.reviews.length,
    files: manifest.entries.length,
    pages,
    seconds,
    peakMiB,
    timings,
    cards,
  }),
);
