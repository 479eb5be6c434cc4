import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { BusinessSchema } from "@riverbend/shared/schemas/business.ts";
import { generateReviews } from "../src/synth/generate.ts";

const USAGE = "usage: npm run data:synth -- --reviews N --out DIR [--seed S] [--end-date YYYY-MM-DD] [--years Y]";

/** `npm run data:synth`: write a synthetic data folder (same layout as data/) for benchmarks. */
function main(): number {
  const { values } = parseArgs({
    options: {
      reviews: { type: "string" },
      out: { type: "string" },
      seed: { type: "string", default: "1" },
      "end-date": { type: "string", default: "2026-11-01" },
      years: { type: "string", default: "5" },
      business: { type: "string", default: "data/business.json" },
    },
  });
  const reviews = Number(values.reviews);
  if (!values.out || !Number.isInteger(reviews) || reviews < 0) {
    console.error(USAGE);
    return 2;
  }
  const business = BusinessSchema.parse(JSON.parse(readFileSync(values.business, "utf8")));
  const out = path.resolve(values.out);
  rmSync(path.join(out, "reviews"), { recursive: true, force: true });
  mkdirSync(path.join(out, "reviews"), { recursive: true });
  writeFileSync(path.join(out, "business.json"), `${JSON.stringify(business, null, 2)}\n`);
  let count = 0;
  for (const review of generateReviews(business, {
    reviews,
    seed: Number(values.seed),
    endDate: values["end-date"],
    years: Number(values.years),
  })) {
    writeFileSync(path.join(out, "reviews", `${review.id}.json`), `${JSON.stringify(review, null, 2)}\n`);
    count++;
  }
  console.log(`Wrote ${count} synthetic reviews to ${out}.`);
  return 0;
}

process.exitCode = main();
