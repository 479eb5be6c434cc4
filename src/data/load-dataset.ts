import type { z } from "zod";
import { type Business, BusinessSchema } from "../schemas/business.ts";
import { type Review, ReviewSchema } from "../schemas/review.ts";
import { checkBusiness, checkReview, reviewContext } from "./check-references.ts";
import { compareNewestFirst, type Dataset } from "./dataset.ts";
import { describeIssues } from "./format-issue.ts";
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

  const reviews: Review[] = [];
  const ids = new Map<string, string>();
  const today = options.today ?? (business ? todayIn(business.time_zone) : undefined);
  const context = business && today ? reviewContext(business, today) : undefined;
  for (const file of read.reviews) {
    const review = parseWith(ReviewSchema, file, problems);
    const fields = review ?? validFields(file.json);
    if (fields.id !== undefined) {
      const firstFile = ids.get(fields.id);
      if (firstFile) {
        problems.push({
          file: file.display,
          field: "id",
          message: `${JSON.stringify(fields.id)} is already used by ${firstFile}; ids are never reused`,
        });
      } else {
        ids.set(fields.id, file.display);
      }
    }
    if (context) problems.push(...checkReview(fields, file.stem, file.display, context));
    if (review) reviews.push(review);
  }

  if (problems.length > 0 || !business) throw new DataValidationError(sortByFile(problems));
  reviews.sort(compareNewestFirst);
  return { business, reviews, sourceSha256: read.sourceSha256 };
}
