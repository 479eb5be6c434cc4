import { parentPort, workerData } from "node:worker_threads";
import type { WorkerInput, WorkerOutput } from "./parallel.ts";

/**
 * The worker thread of the per-review step (see parallel.ts): builds its own analyser from the lexicon,
 * analyses its share and posts the entries. Modules load inside the try, so a failure to load them is
 * reported like any other and the main thread does the share itself.
 */
const input = workerData as WorkerInput;
let output: WorkerOutput;
try {
  const { createAnalyzer } = await import("../analysis/analyze-review.ts");
  const { analyzeTexts } = await import("./analyze-reviews.ts");
  const { loadModel } = await import("../model/clause-model.ts");
  const analyzer = createAnalyzer(input.lexicon, { model: loadModel(input.modelRoot) });
  const { compileTopics } = await import("../topics/match-topics.ts");
  const topics = compileTopics(input.topics);
  output = { entries: analyzeTexts(analyzer, input.texts, input.ratings, topics) };
} catch (error) {
  output = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
parentPort?.postMessage(output);
