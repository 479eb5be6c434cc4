import { type LabelledReview, LabelledReviewSchema } from "@riverbend/shared/schemas/analysis.ts";
import type { z } from "zod";

export class LabelledFileError extends Error {
  override name = "LabelledFileError";
}

/** Parses a JSONL file line by line against `schema`; the first bad line aborts with its file, line and field. */
export function parseJsonLines<T>(content: string, file: string, schema: z.ZodType<T>): T[] {
  const out: T[] = [];
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
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(line)"}: ${i.message}`).join("; ");
      throw new LabelledFileError(`${where}: ${issues}`);
    }
    out.push(parsed.data);
  });
  return out;
}

/** Parses a JSONL file of labelled reviews. */
export function parseLabelled(content: string, file: string): LabelledReview[] {
  return parseJsonLines(content, file, LabelledReviewSchema);
}
