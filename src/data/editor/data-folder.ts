import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Business, BusinessSchema } from "@riverbend/shared/schemas/business.ts";
import { describeIssues } from "@riverbend/shared/schemas/format-issue.ts";
import { type DataProblem, DataValidationError } from "../problems.ts";
import { displayPath, parseDataText, readJsonFolder, type SourceFile } from "../read-files.ts";
import { fieldsAt } from "../schema-keys.ts";

/** The folders of a data folder that hold one JSON file per review id. */
export type ReviewFolder = "reviews" | "drafts" | "removed";
const FOLDERS: readonly ReviewFolder[] = ["reviews", "drafts", "removed"];

export function reviewFile(dataDir: string, folder: ReviewFolder, id: string): string {
  return path.join(dataDir, folder, `${id}.json`);
}

/** business.json, validated; its problems are thrown, as the data check would report them. */
export function loadBusiness(dataDir: string): Business {
  const file = path.join(dataDir, "business.json");
  const display = displayPath(file);
  const parsed = parseDataText(readFileSync(file, "utf8"), display);
  if ("problem" in parsed) throw new DataValidationError([parsed.problem]);
  const result = BusinessSchema.safeParse(parsed.json);
  if (!result.success) {
    const problems = describeIssues(result.error.issues, parsed.json, (p) => fieldsAt(BusinessSchema, p));
    throw new DataValidationError(problems.map((p) => ({ file: display, ...p })));
  }
  return result.data;
}

/** Every id in use or ever used: published, drafted or removed. A new review never takes one. */
export function takenIds(dataDir: string): Set<string> {
  const ids = new Set<string>();
  for (const folder of FOLDERS) {
    const dir = path.join(dataDir, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) if (name.endsWith(".json")) ids.add(name.slice(0, -5));
  }
  return ids;
}

/** The files of one folder, parsed; unreadable ones are left to the data check to report. */
export function readFolder(dataDir: string, folder: ReviewFolder): SourceFile[] {
  const ignored: DataProblem[] = [];
  return readJsonFolder(path.join(dataDir, folder), ignored, { optional: true });
}

/** `source` and `source_id` of every review the folder has seen, so an import adds each only once. */
export function importedKeys(dataDir: string): Set<string> {
  const keys = new Set<string>();
  for (const folder of FOLDERS) {
    for (const file of readFolder(dataDir, folder)) {
      const { source, source_id } = (file.json ?? {}) as Record<string, unknown>;
      if (typeof source === "string" && typeof source_id === "string") keys.add(importKey(source, source_id));
    }
  }
  return keys;
}

export const importKey = (source: string, sourceId: string) => `${source}\u0000${sourceId}`;

/** Writes a review file as the editor would: two-space JSON, fields in order, a final newline. */
export function writeReviewJson(dataDir: string, folder: ReviewFolder, json: Record<string, unknown>): string {
  const file = reviewFile(dataDir, folder, String(json.id));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  return file;
}

/** Moves a review file between folders (a verified draft into reviews/), never overwriting one. */
export function moveReview(dataDir: string, id: string, from: ReviewFolder, to: ReviewFolder): string {
  const target = reviewFile(dataDir, to, id);
  if (existsSync(target)) throw new Error(`${displayPath(target)} already exists`);
  mkdirSync(path.dirname(target), { recursive: true });
  renameSync(reviewFile(dataDir, from, id), target);
  return target;
}

export function deleteReview(dataDir: string, folder: ReviewFolder, id: string): void {
  rmSync(reviewFile(dataDir, folder, id));
}
