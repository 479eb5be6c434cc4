import type { AspectInsight, FaqEntry } from "../../schemas/insights.ts";
import type { EditorFaqFile } from "../../schemas/insights-data.ts";
import { checkNumbers, type Figures } from "./check-numbers.ts";
import { faqEvidence } from "./computed-faq.ts";

/** A contradiction between an editor file and the figures, located by field. */
export interface EditorProblem {
  field: string;
  message: string;
}

/**
 * Editor entries first, in file order, then the computed entries they do not replace (same id).
 * Every number in an editor answer is checked against the figures; a contradiction is a problem.
 */
export function mergeFaq(
  computed: readonly FaqEntry[],
  editor: EditorFaqFile | undefined,
  aspects: readonly AspectInsight[],
  figures: Figures,
): { faq: FaqEntry[]; problems: EditorProblem[] } {
  if (!editor) return { faq: [...computed], problems: [] };
  const problems: EditorProblem[] = [];
  const written = editor.faq.map((entry, index): FaqEntry => {
    for (const field of ["question", "answer"] as const) {
      for (const message of checkNumbers(entry[field], figures))
        problems.push({ field: `faq[${index}].${field}`, message });
    }
    const aspect = entry.aspect ? aspects.find((a) => a.id === entry.aspect) : undefined;
    return {
      id: entry.id,
      question: entry.question,
      answer: entry.answer,
      source: "editor",
      evidence: faqEvidence(aspect),
    };
  });
  const replaced = new Set(written.map((e) => e.id));
  return { faq: [...written, ...computed.filter((e) => !replaced.has(e.id))], problems };
}
