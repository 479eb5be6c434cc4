import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ConfigError, parseConfig } from "@riverbend/shared/config/parse-config.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { loadDataset } from "../src/data/load-dataset.ts";
import { DataValidationError } from "../src/data/problems.ts";
import { auditSheet, drawSample } from "../src/insights/audit/audit-sheet.ts";
import { publishedQuotes } from "../src/insights/audit/published-quotes.ts";
import { datasetFromReviewsFile } from "../src/insights/audit/reviews-file.ts";
import { LabelledFileError } from "../src/insights/eval/read-labelled.ts";
import { computeInsights } from "../src/insights/step/compute-insights.ts";

const USAGE = "usage: npm run insights:audit -- --sample N --seed N [--reviews FILE.jsonl] [--out FILE.md]";

function readReviewsFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new LabelledFileError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

function positiveInt(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined || !/^\d+$/.test(value)) throw new TypeError(`--${name} must be a whole number`);
  return Number(value);
}

/**
 * `npm run insights:audit -- --sample 60 --seed N`: draws published quotes of /insights.json (built from
 * DATA_DIR as the build builds it) at random and writes a sheet for a reader to judge. With `--reviews
 * FILE.jsonl` the quotes are those the analyser would publish for that file's reviews (one `{id, rating,
 * text}` a line) instead of DATA_DIR's, so the audit can run on reviews the analyser has never seen.
 */
async function main(): Promise<number> {
  let sample: number;
  let seed: number;
  let out: string;
  let reviewsFile: string | undefined;
  try {
    const { values } = parseArgs({
      options: {
        sample: { type: "string" },
        seed: { type: "string" },
        out: { type: "string" },
        reviews: { type: "string" },
      },
    });
    reviewsFile = values.reviews;
    sample = positiveInt("sample", values.sample, 60);
    seed = positiveInt("seed", values.seed);
    out = values.out ?? `insights-audit-seed-${seed}.md`;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    const config = parseConfig();
    const data = loadDataset(config.DATA_DIR);
    const dataset = reviewsFile
      ? datasetFromReviewsFile(readReviewsFile(reviewsFile), reviewsFile, data.business)
      : data;
    const { document } = await computeInsights({
      root: process.cwd(),
      dataDir: config.DATA_DIR,
      dataset,
      urls: siteUrls(config.SITE_URL),
    });
    const pool = publishedQuotes(document);
    const texts = new Map(dataset.reviews.map((r) => [r.id, r.text]));
    const drawn = drawSample(pool, sample, seed);
    writeFileSync(
      out,
      auditSheet(drawn, { seed, poolSize: pool.length, asOf: document.as_of, method: document.method.version }, (id) =>
        texts.get(id),
      ),
    );
    const from = reviewsFile ? ` of the ${dataset.reviews.length} reviews in ${reviewsFile}` : "";
    console.log(`${out}: ${drawn.length} of ${pool.length} published quotes${from} (seed ${seed}).`);
    return 0;
  } catch (error) {
    if (error instanceof DataValidationError || error instanceof ConfigError || error instanceof LabelledFileError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
