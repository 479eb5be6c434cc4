import type { AspectInsight, FaqEntry } from "@riverbend/shared/schemas/insights.ts";
import type { EditorFaqFile } from "@riverbend/shared/schemas/insights-data.ts";
import { fillPlaceholders, withoutPlaceholders } from "../editor/placeholders.ts";
import { checkNumbers, type Figures } from "./check-numbers.ts";
import { faqEvidence } from "./computed-faq.ts";

/** A contradiction between an editor file and the figures, located by field. */
export interface EditorProblem {
  field: string;
  message: string;
}

/**
 * Editor entries first, in file order, then the computed entries they do not replace (same id).
 * Placeholders are filled from the figures; a literal number that contradicts them is a warning for the
 * editor, never a failed build (the next ordinary review may change any figure).
 */
export function mergeFaq(
  computed: readonly FaqEntry[],
  editor: EditorFaqFile | undefined,
  aspects: readonly AspectInsight[],
  figures: Figures,
): { faq: FaqEntry[]; warnings: EditorProblem[] } {
  if (!editor) return { faq: [...computed], warnings: [] };
  const warnings: EditorProblem[] = [];
  const written = editor.faq.map((entry, index): FaqEntry => {
    for (const field of ["question", "answer"] as const) {
      for (const message of checkNumbers(withoutPlaceholders(entry[field]), figures))
        warnings.push({ field: `faq[${index}].${field}`, message });
    }
    const aspect = entry.aspect ? aspects.find((a) => a.id === entry.aspect) : undefined;
    return {
      id: entry.id,
      question: fillPlaceholders(entry.question, figures),
      answer: fillPlaceholders(entry.answer, figures),
      source: "editor",
      evidence: faqEvidence(aspect),
    };
  });
  const replaced = new Set(written.map((e) => e.id));
  return { faq: [...written, ...computed.filter((e) => !replaced.has(e.id))], warnings };
}
