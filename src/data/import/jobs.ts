import { foldName } from "../catalogue-match.ts";
import { displayName } from "../editor/display-name.ts";
import type { ImportCandidate } from "./candidate.ts";
import { aliasMap, readCsv, splitList } from "./csv-table.ts";
import { parseLocalDate } from "./dates.ts";

/** A job of the business's records, as a jobs CSV lists it (docs/importing-reviews.md). */
export interface JobRecord {
  job: string;
  /** The customer's name as a review would show it ("Maria G."), folded for comparison. */
  customerKey: string;
  date: string;
  technicians: string[];
  services: string[];
  area?: string | undefined;
}

export const JOB_COLUMNS = {
  job: ["job_id", "job_number", "reference", "work_order", "invoice"],
  customer: ["customer_name", "name", "client"],
  date: ["job_date", "completed", "completed_on", "service_date"],
  technicians: ["technician", "tech", "techs"],
  services: ["service", "job_type"],
  area: ["service_area", "city", "town"],
} as const;

/** A review may be written on the job's day or up to this many days after it. */
export const JOB_WINDOW_DAYS = 60;

export function readJobs(text: string, timeZone: string): { jobs: JobRecord[]; problems: string[] } {
  const { rows, columns } = readCsv(text, aliasMap(JOB_COLUMNS));
  const missing = ["job", "customer", "date"].filter((c) => !columns.includes(c));
  if (missing.length > 0) return { jobs: [], problems: [`the jobs file's header has no ${missing.join(", ")} column`] };
  const jobs: JobRecord[] = [];
  const problems: string[] = [];
  for (const { line, values } of rows) {
    const date = parseLocalDate(values.get("date") ?? "", timeZone);
    const customer = displayName(values.get("customer") ?? "");
    const job = values.get("job");
    if (!date || !customer || !job) {
      problems.push(`jobs line ${line}: needs a job number, a customer name and a date; skipped`);
      continue;
    }
    jobs.push({
      job,
      customerKey: foldName(customer),
      date,
      technicians: splitList(values.get("technicians")),
      services: splitList(values.get("services")),
      area: values.get("area"),
    });
  }
  return { jobs, problems };
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/**
 * The job a review is about: the customer's displayed name equals the review's author ("Maria
 * Garcia" on the job matches "Maria G."), and the review is dated on the job's day or up to
 * JOB_WINDOW_DAYS after it. Of several, the latest job before the review; two on that day are
 * ambiguous and match none, so verification never guesses.
 */
export function matchJob(candidate: ImportCandidate, jobs: readonly JobRecord[]): JobRecord | undefined {
  const key = foldName(candidate.author);
  const review = dayNumber(candidate.date);
  const fits = jobs
    .filter((job) => job.customerKey === key)
    .filter((job) => {
      const gap = review - dayNumber(job.date);
      return gap >= 0 && gap <= JOB_WINDOW_DAYS;
    })
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const [latest, next] = fits;
  if (!latest || (next && next.date === latest.date && next.job !== latest.job)) return undefined;
  return latest;
}
