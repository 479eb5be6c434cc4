import { readFileSync } from "node:fs";
import { composeReview } from "../editor/compose-review.ts";
import { importedKeys, importKey, loadBusiness, takenIds, writeReviewJson } from "../editor/data-folder.ts";
import { checkOne } from "../editor/drafts.ts";
import { deriveReviewId } from "../editor/review-id.ts";
import { todayIn } from "../load-dataset.ts";
import { parseDataText } from "../read-files.ts";
import type { ImportCandidate, ReadResult, RefusedRow } from "./candidate.ts";
import { isGoogleExport, readGoogleExport } from "./google-export.ts";
import { type JobRecord, matchJob, readJobs } from "./jobs.ts";
import { readReviewsCsv } from "./reviews-csv.ts";

export interface ImportedReview {
  where: string;
  id: string;
  file: string;
  published: boolean;
  /** For a draft: the fields it still needs (verification first). */
  lacks: string[];
  job?: string | undefined;
}

export interface ImportReport {
  added: ImportedReview[];
  duplicates: { where: string; sourceId: string }[];
  refused: RefusedRow[];
  notes: string[];
}

/** What a draft may lack: what an editor adds later. Anything else wrong refuses the row. */
const DRAFT_FIELDS = /^(verified|verification(\..*)?|service_area)$/;

/** Reads an import file: a Business Profile export (JSON) or a reviews CSV, by its content. */
export function readImportFile(file: string, timeZone: string): ReadResult {
  const text = readFileSync(file, "utf8");
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (body === "") return { candidates: [], refused: [{ where: file, reason: "is empty" }], notes: [] };
  if (body.startsWith("{") || body.startsWith("[")) {
    const parsed = parseDataText(text, file);
    if ("problem" in parsed)
      return { candidates: [], refused: [{ where: file, reason: parsed.problem.message }], notes: [] };
    if (!isGoogleExport(parsed.json)) {
      const reason = "is JSON but not a Business Profile reviews export (a list of reviews with starRating)";
      return { candidates: [], refused: [{ where: file, reason }], notes: [] };
    }
    return readGoogleExport(parsed.json, timeZone);
  }
  return readReviewsCsv(text, timeZone);
}

/** Fills what the job record knows and the review does not, and marks it verified by that job. */
function withJob(candidate: ImportCandidate, job: JobRecord): ImportCandidate {
  return {
    ...candidate,
    method: "job_record",
    reference: job.job,
    technicians: candidate.technicians.length > 0 ? candidate.technicians : job.technicians,
    services: candidate.services.length > 0 ? candidate.services : job.services,
    area: candidate.area ?? job.area,
  };
}

/**
 * Imports every review of `file` into the data folder: a review verified (by its own columns or a
 * matching job) and complete is published in `reviews/`, any other goes to `drafts/`. A review whose
 * source id the folder has seen (published, drafted or removed) is skipped as a duplicate.
 */
export function importReviews(options: {
  dataDir: string;
  file: string;
  jobsFile?: string;
  today?: string;
}): ImportReport {
  const { dataDir } = options;
  const business = loadBusiness(dataDir);
  const today = options.today ?? todayIn(business.time_zone);
  const read = readImportFile(options.file, business.time_zone);
  const report: ImportReport = { added: [], duplicates: [], refused: [...read.refused], notes: [...read.notes] };
  const jobs = options.jobsFile ? readJobs(readFileSync(options.jobsFile, "utf8"), business.time_zone) : undefined;
  if (jobs) report.notes.push(...jobs.problems);
  const seen = importedKeys(dataDir);
  const taken = takenIds(dataDir);

  for (const original of read.candidates) {
    const key = importKey(original.source, original.sourceId);
    if (seen.has(key)) {
      report.duplicates.push({ where: original.where, sourceId: original.sourceId });
      continue;
    }
    const job = jobs && !original.method ? matchJob(original, jobs.jobs) : undefined;
    const candidate = job ? withJob(original, job) : original;
    const id = deriveReviewId(candidate.date, candidate.author, taken);
    const { json, errors } = composeReview({ ...candidate, id }, business);
    if (errors.length > 0) {
      report.refused.push({ where: candidate.where, reason: errors.join("; ") });
      continue;
    }
    const problems = checkOne({ display: id, stem: id, json }, business, today);
    const blocking = problems.filter((p) => !DRAFT_FIELDS.test(p.field));
    if (blocking.length > 0) {
      report.refused.push({
        where: candidate.where,
        reason: blocking.map((p) => `${p.field}: ${p.message}`).join("; "),
      });
      continue;
    }
    const published = problems.length === 0;
    const file = writeReviewJson(dataDir, published ? "reviews" : "drafts", json);
    const lacks = [...new Set(problems.map((p) => (p.field.startsWith("verifi") ? "verification" : p.field)))];
    report.added.push({ where: candidate.where, id, file, published, lacks, job: job?.job });
    seen.add(key);
    taken.add(id);
  }
  return report;
}
