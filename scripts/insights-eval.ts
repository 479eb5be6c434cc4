import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createAnalyzer, loadLexicon } from "../src/insights/analysis/analyze-review.ts";
import { LexiconError } from "../src/insights/analysis/lexicon.ts";
import { evaluate, formatEvaluation, predictionLines } from "../src/insights/eval/evaluate.ts";
import { LabelledFileError, parseLabelled } from "../src/insights/eval/read-labelled.ts";

const USAGE = "usage: npm run insights:eval -- FILE.jsonl [--predictions OUT.jsonl]";

/**
 * `npm run insights:eval -- FILE.jsonl [--predictions OUT.jsonl]`: score the aspect analyser against
 * labelled reviews; with --predictions also write one line per review, `{"id","aspects":{...}}`, so
 * that anyone can score it with their own arithmetic.
 */
function main(): number {
  let file: string | undefined;
  let out: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      options: { predictions: { type: "string" } },
      allowPositionals: true,
    });
    file = positionals[0];
    out = values.predictions;
    if (!file || positionals.length > 1) throw new TypeError("expected exactly one FILE.jsonl");
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    const gold = parseLabelled(readFileSync(file, "utf8"), file);
    const analyzer = createAnalyzer(loadLexicon().lexicon);
    const predicted = gold.map((r) => analyzer.analyze(r.text, r.rating));
    if (out) writeFileSync(out, predictionLines(gold, predicted));
    console.log(formatEvaluation(evaluate(analyzer, gold, predicted)));
    if (out) console.error(`predictions for ${gold.length} reviews written to ${out}`);
    return 0;
  } catch (error) {
    if (error instanceof LabelledFileError || error instanceof LexiconError) {
      console.error(error.message);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") {
      console.error(`${(error as NodeJS.ErrnoException).path ?? file}: ${code === "ENOENT" ? "no such file" : code}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = main();
