import { type LabelledReview, LabelledReviewSchema } from "../../schemas/analysis.ts";

export class LabelledFileError extends Error {
  override name = "LabelledFileError";
}

/** Parses a JSONL file of labelled reviews; the first bad line aborts with its file and line number. */
export function parseLabelled(content: string, file: string): LabelledReview[] {
  const out: LabelledReview[] = [];
  const lines = content.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const where = `${file}:${index + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      throw new LabelledFileError(`${where}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = LabelledReviewSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(line)"}: ${i.message}`).join("; ");
      throw new LabelledFileError(`${where}: ${issues}`);
    }
    out.push(parsed.data);
  });
  return out;
}
