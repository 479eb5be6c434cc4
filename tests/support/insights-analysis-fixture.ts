/**
 * The aspect analyser on the real lexicon, and sentences of the sample reviews, shared by the
 * insights-analysis-*.test.ts files.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AspectPolarity } from "@riverbend/shared/schemas/analysis.ts";
import { createAnalyzer, loadLexicon } from "../../src/insights/analysis/analyze-review.ts";

export const loaded = loadLexicon();
export const analyzer = createAnalyzer(loaded.lexicon);

/** The aspects found in a text, each with its polarity. */
export function aspects(text: string, rating?: number): Record<string, AspectPolarity> {
  return Object.fromEntries(analyzer.analyze(text, rating).aspects.map((a) => [a.aspect, a.polarity]));
}

/** Real review sentences, the material property tests build texts from. */
export const SENTENCES = readdirSync("data/reviews")
  .slice(0, 120)
  .flatMap((f) =>
    (JSON.parse(readFileSync(path.join("data/reviews", f), "utf8")).text as string).split(/(?<=[.!?])\s+/),
  )
  .filter((s) => s.length > 0);
