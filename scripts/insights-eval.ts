import { readFileSync } from "node:fs";
import { createAnalyzer, loadLexicon } from "../src/insights/analysis/analyze-review.ts";
import { LexiconError } from "../src/insights/analysis/lexicon.ts";
import { evaluate, formatEvaluation } from "../src/insights/eval/evaluate.ts";
import { LabelledFileError, parseLabelled } from "../src/insights/eval/read-labelled.ts";

/** `npm run insights:eval -- FILE.jsonl`: score the aspect analyser against labelled reviews. */
function main(): number {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: npm run insights:eval -- FILE.jsonl");
    return 2;
  }
  try {
    const gold = parseLabelled(readFileSync(file, "utf8"), file);
    const { lexicon } = loadLexicon();
    console.log(formatEvaluation(evaluate(createAnalyzer(lexicon), gold)));
    return 0;
  } catch (error) {
    if (error instanceof LabelledFileError || error instanceof LexiconError) {
      console.error(error.message);
      return 1;
    }
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      console.error(`${file}: no such file`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = main();
