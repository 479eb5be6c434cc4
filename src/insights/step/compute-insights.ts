import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { InsightsDocument } from "@riverbend/shared/schemas/insights.ts";
import { hasText } from "@riverbend/shared/schemas/review.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { type DataProblem, DataValidationError, formatProblem } from "../../data/problems.ts";
import { createAnalyzer, loadLexicon, METHOD_VERSION } from "../analysis/analyze-review.ts";
import { DEFAULT_LEXICON_DIR } from "../analysis/lexicon.ts";
import { buildDocument } from "../build-document.ts";
import { AnalysisCache } from "../cache/analysis-cache.ts";
import { loadEditorData } from "../editor/load-editor-data.ts";
import { loadModel } from "../model/clause-model.ts";
import { AGGREGATION_VERSION, THRESHOLDS } from "../thresholds.ts";
import type { TopicListing } from "../topics/rank-topics.ts";
import { analyzeReviews, type ReviewAnalyzer } from "./analyze-reviews.ts";
import { sarcasmNotes } from "./sarcasm-notes.ts";

export interface InsightsStepOptions {
  root: string;
  dataDir: string;
  dataset: Dataset;
  urls: SiteUrls;
  /**
   * Defaults to the analyser built from the lexicon; tests wrap it to count calls. A wrapped analyser
   * sees every review: nothing goes to worker threads.
   */
  wrapAnalyzer?: (analyzer: ReviewAnalyzer) => ReviewAnalyzer;
  /**
   * Threads for the uncached reviews: with 2 (the default when there are 2 cores or more), this thread
   * shares them with a worker when more than `minimum` (default 10,000) need analysing; 1 turns that off.
   */
  workers?: { threads?: number; minimum?: number };
}

/**
 * Up to this many uncached reviews a worker hardly pays: starting it and loading its language model
 * cost about as much as it saves (bench:build's insights lines show the two-thread figures).
 */
const WORKER_MINIMUM = 10_000;

export interface InsightsStepResult {
  document: InsightsDocument;
  /** Reviews analysed in this run (the rest came from the cache). */
  analysed: number;
  /** Lines for the build log: stale editor summary, suspected sarcasm for editors. */
  notes: string[];
  /** For the editor (also in `notes`): literal numbers the figures contradict, a stale summary. */
  warnings: string[];
  /** The reviews of each published topic, as dataset positions, for the review browser's topic pages. */
  topicListings: TopicListing[];
  seconds: { analysis: number; aggregation: number };
}

const since = (start: number) => (performance.now() - start) / 1000;

/**
 * The insights step of the build: reads the lexicon and the editor files, analyses the reviews the
 * cache has not seen, and builds the document. Throws DataValidationError (nothing written yet)
 * when an editor file is malformed; what the figures contradict is a warning, never a failure.
 */
export async function computeInsights(options: InsightsStepOptions): Promise<InsightsStepResult> {
  let phase = performance.now();
  const { business } = options.dataset;
  // Rating-only reviews have no words to analyse.
  const reviews = options.dataset.reviews.filter(hasText);
  const problems: DataProblem[] = [];
  const editor = loadEditorData(options.root, options.dataDir, business, problems);
  if (problems.length > 0) throw new DataValidationError(problems);
  const { lexicon, hash, version } = loadLexicon(path.resolve(options.root, DEFAULT_LEXICON_DIR));
  const model = loadModel(options.root);
  const base = createAnalyzer(lexicon, { model });
  const analyzer = options.wrapAnalyzer ? options.wrapAnalyzer(base) : base;
  const methodVersion = `${METHOD_VERSION}+${AGGREGATION_VERSION}`;
  const topicsHash = createHash("sha256").update(JSON.stringify(editor.topics)).digest("hex");
  const cache = new AnalysisCache(options.root, `${methodVersion}|${hash}|${model.hash}|${topicsHash}`);
  const threads = options.wrapAnalyzer ? 1 : (options.workers?.threads ?? Math.min(2, availableParallelism()));
  const minimum = options.workers?.minimum ?? WORKER_MINIMUM;
  const { items, analysed } = await analyzeReviews(reviews, analyzer, cache, editor.topics, {
    lexicon,
    modelRoot: options.root,
    threads,
    minimum,
  });
  const analysis = since(phase);
  phase = performance.now();
  const result = buildDocument({
    business,
    items,
    editor,
    method: {
      version: methodVersion,
      lexicon_version: version,
      lexicon_hash: hash,
      model_version: model.version,
      model_hash: model.hash,
    },
    thresholds: THRESHOLDS,
    permalink: options.urls.permalink,
  });
  cache.save();
  const warnings = [
    ...result.warnings.faq.map((p) => formatProblem({ file: editor.files.faq, ...p })),
    ...result.warnings.summary.map((p) => formatProblem({ file: editor.files.summary, ...p })),
  ];
  const notes = [...warnings.map((w) => `warning: ${w}`), ...sarcasmNotes(items)];
  return {
    document: result.document,
    analysed,
    notes,
    warnings,
    topicListings: result.topicListings,
    seconds: { analysis, aggregation: since(phase) },
  };
}
