import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describeIssues } from "@riverbend/shared/schemas/format-issue.ts";
import type { z } from "zod";
import type { DataProblem } from "../../data/problems.ts";
import { fieldsAt } from "../../data/schema-keys.ts";

/** Path as shown in messages: relative to the working directory when inside it. */
export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

/**
 * Reads and validates one optional JSON file: undefined when absent, and on any problem (unreadable,
 * malformed, wrong shape) the problems in the data folder's file + field style.
 */
export function readOptionalJson<T>(file: string, schema: z.ZodType<T>, problems: DataProblem[]): T | undefined {
  if (!existsSync(file)) return undefined;
  const display = displayPath(file);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const message = `is not valid JSON: ${(error as Error).message}; check for a missing comma or quote`;
    problems.push({ file: display, field: "(file)", message });
    return undefined;
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  for (const problem of describeIssues(result.error.issues, json, (p) => fieldsAt(schema, p))) {
    problems.push({ file: display, ...problem });
  }
  return undefined;
}
