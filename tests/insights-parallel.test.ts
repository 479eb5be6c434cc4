import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { createAnalyzer, loadLexicon } from "../src/insights/analysis/analyze-review.ts";
import { analyzeTexts } from "../src/insights/step/analyze-reviews.ts";
import { analyzeWithWorker } from "../src/insights/step/parallel.ts";
import { compileTopics } from "../src/insights/topics/match-topics.ts";

// The sample reviews and the development set. A text's result must not depend on what was read before
// it (tests/insights-tokens.test.ts) nor on the texts analysed in the same chunk, so the worker's share,
// analysed chunk by chunk, equals what this thread makes of each text alone.
const dev = readFileSync("tests/fixtures/insights/dev.jsonl", "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { text: string; rating?: number });
const reviews = [...loadDataset("data").reviews, ...dev.map((d) => ({ text: d.text, rating: d.rating ?? 3 }))];
const texts = reviews.map((r) => r.text ?? "");
const ratings = reviews.map((r) => r.rating);
const after = "Bill came at 3 for the year's service; the final Bill was fair.";

/** Each text analysed alone, on one thread, in a fresh process (nothing read before), then one more text. */
function singleThreaded(): string {
  const module = (file: string) => JSON.stringify(pathToFileURL(path.resolve(file)).href);
  const code = `
    import { readFileSync } from "node:fs";
    import { createAnalyzer, loadLexicon } from ${module("src/insights/analysis/analyze-review.ts")};
    import { analyzeTexts } from ${module("src/insights/step/analyze-reviews.ts")};
    import { compileTopics } from ${module("src/insights/topics/match-topics.ts")};
    const { texts, ratings, after } = JSON.parse(readFileSync(0, "utf8"));
    const { lexicon } = loadLexicon();
    const analyzer = createAnalyzer(lexicon);
    const opinion = compileTopics(JSON.parse(readFileSync("data/insights/topics.json", "utf8")));
    const entries = texts.map((t, i) => analyzeTexts(analyzer, [t], [ratings[i]], opinion)[0]);
    process.stdout.write(JSON.stringify({ entries, after: analyzeTexts(analyzer, [after], [2], opinion)[0] }));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    input: JSON.stringify({ texts, ratings, after }),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}

describe("per-review step on a worker thread", () => {
  it("gives the entries of each text analysed alone on one thread, in order, and the same result for a text analysed afterwards", async () => {
    const { lexicon } = loadLexicon();
    const analyzer = createAnalyzer(lexicon);
    const catalogue = JSON.parse(readFileSync("data/insights/topics.json", "utf8"));
    const opinion = compileTopics(catalogue);
    const cut = Math.round(texts.length * 0.4);
    const { entries, worker } = await analyzeWithWorker(
      texts,
      ratings,
      { lexicon, modelRoot: ".", topics: catalogue, cut },
      (t, r) => analyzeTexts(analyzer, t, r, opinion),
    );
    expect(worker).toBe(true);
    const parallel = JSON.stringify({ entries, after: analyzeTexts(analyzer, [after], [2], opinion)[0] });
    expect(parallel).toBe(singleThreaded());
  });
});
