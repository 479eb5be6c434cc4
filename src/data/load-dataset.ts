import { type Business, BusinessSchema } from "@riverbend/shared/schemas/business.ts";
import { compareNewestFirst, type Dataset } from "@riverbend/shared/schemas/dataset.ts";
import { describeIssues } from "@riverbend/shared/schemas/format-issue.ts";
import { type RemovedReview, RemovedReviewSchema } from "@riverbend/shared/schemas/removed-review.ts";
import { type Review, ReviewSchema } from "@riverbend/shared/schemas/review.ts";
import type { z } from "zod";
import { checkBusiness, checkReview, type ReviewContext, rawReferences, reviewContext } from "./check-references.ts";
import { sourceHint, technicianIdsToNames } from "./normalise-review.ts";
import { type DataProblem, DataValidationError } from "./problems.ts";
import { readDataFiles, type SourceFile } from "./read-files.ts";
import { fieldsAt } from "./schema-keys.ts";

export interface LoadOptions {
  /** Overrides "today" (YYYY-MM-DD in the business's time zone) for the no-future-dates rule. */
  today?: string;
}

/** Today's calendar date in the given IANA time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** The fields of a review that are valid on their own, for reference checks on a file that failed the schema. */
function validFields(json: unknown): Partial<Review> {
  if (json === null || typeof json !== "object") return {};
  const fields: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(ReviewSchema.shape)) {
    const result = schema.safeParse((json as Record<string, unknown>)[key]);
    if (result.success && result.data !== undefined) fields[key] = result.data;
  }
  return fields as Partial<Review>;
}

function parseWith<T>(schema: z.ZodType<T>, file: SourceFile, problems: DataProblem[]): T | undefined {
  const result = schema.safeParse(file.json);
  if (result.success) return result.data;
  for (const problem of describeIssues(result.error.issues, file.json, (path) => fieldsAt(schema, path))) {
    problems.push({ file: file.display, ...problem });
  }
  return undefined;
}

/** Groups problems by file (stable within a file) so an editor can work through one file at a time. */
function sortByFile(problems: DataProblem[]): DataProblem[] {
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => (a.problem.file === b.problem.file ? a.index - b.index : a.problem.file < b.problem.file ? -1 : 1))
    .map(({ problem }) => problem);
}

/**
 * Everything that can be said about one review file on its own: the schema, the references to the
 * catalogues, dates and file name. `context` is missing when business.json itself is broken.
 * Used for published reviews, drafts and reviews about to be written by the editor's commands.
 */
export function checkReviewFile(
  source: SourceFile,
  context: ReviewContext | undefined,
): { review: Review | undefined; fields: Partial<Review>; problems: DataProblem[] } {
  const file = context ? { ...source, json: technicianIdsToNames(source.json, context.business) } : source;
  const schemaProblems: DataProblem[] = [];
  const review = parseWith(ReviewSchema, file, schemaProblems);
  const fields = review ?? validFields(file.json);
  const references = context ? checkReview(fields, file.stem, file.display, context, rawReferences(file.json)) : [];
  // A reference check that understood the value (an area given by name) replaces the schema's message.
  const explained = new Set(references.map((p) => p.field).filter((f) => /^(service_area|services\[\d+\])$/.test(f)));
  const problems = [
    ...schemaProblems.filter((p) => !explained.has(p.field)).map((p) => sourceHint(p, file.json)),
    ...references,
  ];
  return { review: problems.length === 0 ? review : undefined, fields, problems };
}

/** Checks the removed-review records; returns the ids they keep reserved. */
function loadRemoved(files: readonly SourceFile[], problems: DataProblem[]): RemovedReview[] {
  const removed: RemovedReview[] = [];
  for (const file of files) {
    const record = parseWith(RemovedReviewSchema, file, problems);
    if (!record) continue;
    if (record.id !== file.stem) {
      problems.push({ file: file.display, field: "id", message: `must equal the file name "${file.stem}"` });
    }
    removed.push(record);
  }
  return removed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Loads and validates the whole data folder. Every problem in every file is collected, so an
 * editor sees them all in one run; any problem throws a DataValidationError listing them.
 */
export function loadDataset(dataDir: string, options: LoadOptions = {}): Dataset {
  const read = readDataFiles(dataDir);
  const problems = [...read.problems];

  let business: Business | undefined;
  if (read.business) {
    business = parseWith(BusinessSchema, read.business, problems);
    if (business) problems.push(...checkBusiness(business, read.business.display));
  }

  const removed = loadRemoved(read.removed, problems);
  const removedIds = new Set(removed.map((r) => r.id));
  const reviews: Review[] = [];
  const ids = new Map<string, string>();
  const today = options.today ?? (business ? todayIn(business.time_zone) : undefined);
  const context = business && today ? reviewContext(business, today) : undefined;
  for (const file of read.reviews) {
    const checked = checkReviewFile(file, context);
    problems.push(...checked.problems);
    const id = checked.fields.id;
    if (id !== undefined) {
      const firstFile = ids.get(id);
      if (firstFile) {
        problems.push({
          file: file.display,
          field: "id",
          message: `${JSON.stringify(id)} is already used by ${firstFile}; ids are never reused`,
        });
      } else {
        ids.set(id, file.display);
      }
      if (removedIds.has(id)) {
        problems.push({
          file: file.display,
          field: "id",
          message: `${JSON.stringify(id)} belonged to a removed review (removed/${id}.json); ids are never reused, choose another`,
        });
      }
    }
    if (checked.review) reviews.push(checked.review);
  }

  if (problems.length > 0 || !business) throw new DataValidationError(sortByFile(problems));
  reviews.sort(compareNewestFirst);
  return { business, reviews, removed, sourceSha256: read.sourceSha256 };
}
