import { composeReview } from "../editor/compose-review.ts";
import {
  deleteReview,
  importedKeys,
  importKey,
  loadBusiness,
  readFolder,
  takenIds,
  writeReviewJson,
} from "../editor/data-folder.ts";
import { checkOne } from "../editor/drafts.ts";
import { deriveReviewId } from "../editor/review-id.ts";
import { todayIn } from "../load-dataset.ts";
import { parseDataText } from "../read-files.ts";
import type { ImportCandidate, ReadResult, RefusedRow } from "./candidate.ts";
import { isGoogleExport, readGoogleExport } from "./google-export.ts";
import { type JobRecord, matchJob, readJobs } from "./jobs.ts";
import { readImportText } from "./read-text.ts";
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
  /** Drafts of an earlier import that a job of `--jobs` now verifies. */
  verified: ImportedReview[];
  duplicates: { where: string; sourceId: string }[];
  refused: RefusedRow[];
  notes: string[];
}

/** What a draft may lack: what an editor adds later. Anything else wrong refuses the row. */
const DRAFT_FIELDS = /^(verified|verification(\..*)?|service_area)$/;

/** Reads an import file: a Business Profile export (JSON) or a reviews CSV, by its content. */
export function readImportFile(file: string, timeZone: string): ReadResult {
  const read = readImportText(file);
  if ("problem" in read) return { candidates: [], refused: [{ where: file, reason: read.problem }], notes: [] };
  const { text } = read;
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

/** A draft of an earlier import as an import candidate, so a job can verify it like a new row. */
function draftCandidate(where: string, json: Record<string, unknown>): ImportCandidate {
  const author = (json.author ?? {}) as { name?: string; locality?: string };
  const verification = json.verification as { method?: string; reference?: string } | undefined;
  const strings = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  return {
    where,
    source: String(json.source),
    sourceId: String(json.source_id),
    date: String(json.date),
    rating: Number(json.rating),
    author: author.name ?? "",
    title: json.title as string | undefined,
    text: json.text as string | undefined,
    locality: author.locality,
    technicians: strings(json.technicians),
    services: strings(json.services),
    area: json.service_area as string | undefined,
    method: verification?.method,
    reference: verification?.reference,
    response: json.response as ImportCandidate["response"],
    updated: json.updated as string | undefined,
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
  const report: ImportReport = {
    added: [],
    verified: [],
    duplicates: [],
    refused: [...read.refused],
    notes: [...read.notes],
  };
  const jobsText = options.jobsFile ? readImportText(options.jobsFile) : undefined;
  if (jobsText && "problem" in jobsText) {
    report.refused.push({ where: options.jobsFile ?? "", reason: `${jobsText.problem}; nothing was imported` });
    return report;
  }
  const jobs = jobsText ? readJobs(jobsText.text, business.time_zone) : undefined;
  if (jobs) report.notes.push(...jobs.problems);
  const seen = importedKeys(dataDir);
  const taken = takenIds(dataDir);
  const drafts = new Map(
    readFolder(dataDir, "drafts").map((file) => {
      const { source, source_id } = (file.json ?? {}) as Record<string, unknown>;
      return [importKey(String(source), String(source_id)), file] as const;
    }),
  );

  for (const original of read.candidates) {
    const key = importKey(original.source, original.sourceId);
    // Reviews imported before their jobs were at hand: a second import with --jobs verifies them.
    const draft = seen.has(key) && jobs ? drafts.get(key) : undefined;
    if (seen.has(key) && !draft) {
      report.duplicates.push({ where: original.where, sourceId: original.sourceId });
      continue;
    }
    const base = draft ? draftCandidate(original.where, draft.json as Record<string, unknown>) : original;
    const job = jobs && !base.method ? matchJob(base, jobs.jobs) : undefined;
    if (draft && !job) {
      report.duplicates.push({ where: original.where, sourceId: original.sourceId });
      continue;
    }
    const candidate = job ? withJob(base, job) : base;
    const id = draft ? draft.stem : deriveReviewId(candidate.date, candidate.author, taken);
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
    if (draft && published) deleteReview(dataDir, "drafts", id);
    const lacks = [...new Set(problems.map((p) => (p.field.startsWith("verifi") ? "verification" : p.field)))];
    report[draft ? "verified" : "added"].push({ where: candidate.where, id, file, published, lacks, job: job?.job });
    seen.add(key);
    taken.add(id);
  }
  return report;
}
