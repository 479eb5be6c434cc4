import type { AspectInsight, Summary, Topic } from "@riverbend/shared/schemas/insights.ts";
import type { EditorSummaryFile } from "@riverbend/shared/schemas/insights-data.ts";
import { fillPlaceholders, withoutPlaceholders } from "../editor/placeholders.ts";
import type { EditorProblem } from "../faq/build-faq.ts";
import { checkNumbers, type Figures } from "../faq/check-numbers.ts";
import type { Thresholds } from "../thresholds.ts";
import { generateSummary } from "./generate-summary.ts";

export interface SummaryResult {
  summary: Summary;
  /** Not failures: a contradicted literal number, a summary older than the newest review. */
  warnings: EditorProblem[];
}

/** The editor's summary when there is one (numbers checked, age warned), else the generated one. */
export function buildSummary(
  editor: EditorSummaryFile | undefined,
  aspects: readonly AspectInsight[],
  topics: readonly Topic[],
  range: { count: number; first: string | null; last: string | null },
  figures: Figures,
  thresholds: Thresholds,
): SummaryResult {
  if (!editor) return { summary: generateSummary(aspects, topics, range, thresholds), warnings: [] };
  const warnings = checkNumbers(withoutPlaceholders(editor.text), figures).map((message) => ({
    field: "text",
    message,
  }));
  if (range.last && editor.as_of < range.last) {
    warnings.push({
      field: "as_of",
      message: `the summary is as of ${editor.as_of} but the newest review is dated ${range.last}; read the reviews since and update the text and as_of`,
    });
  }
  const text = fillPlaceholders(editor.text, figures);
  return { summary: { text, source: "editor", as_of: editor.as_of, evidence: [] }, warnings };
}
