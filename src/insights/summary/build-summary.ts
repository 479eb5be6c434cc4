import type { AspectInsight, Summary } from "../../schemas/insights.ts";
import type { EditorSummaryFile } from "../../schemas/insights-data.ts";
import type { EditorProblem } from "../faq/build-faq.ts";
import { checkNumbers, type Figures } from "../faq/check-numbers.ts";
import type { Thresholds } from "../thresholds.ts";
import { generateSummary } from "./generate-summary.ts";

export interface SummaryResult {
  summary: Summary;
  problems: EditorProblem[];
  /** Not failures: an editor summary older than the newest review is still published. */
  warnings: EditorProblem[];
}

/** The editor's summary when there is one (numbers checked, age warned), else the generated one. */
export function buildSummary(
  editor: EditorSummaryFile | undefined,
  aspects: readonly AspectInsight[],
  range: { count: number; first: string | null; last: string | null },
  figures: Figures,
  thresholds: Thresholds,
): SummaryResult {
  if (!editor) return { summary: generateSummary(aspects, range, thresholds), problems: [], warnings: [] };
  const problems = checkNumbers(editor.text, figures).map((message) => ({ field: "text", message }));
  const warnings =
    range.last && editor.as_of < range.last
      ? [
          {
            field: "as_of",
            message: `the summary is as of ${editor.as_of} but the newest review is dated ${range.last}; read the reviews since and update the text and as_of`,
          },
        ]
      : [];
  return { summary: { text: editor.text, source: "editor", as_of: editor.as_of, evidence: [] }, problems, warnings };
}
