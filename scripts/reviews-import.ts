import { importReviews } from "../src/data/import/import-reviews.ts";
import { JOB_WINDOW_DAYS } from "../src/data/import/jobs.ts";
import { checkDataFolder, parseCommandLine, runCommand, UsageError } from "./editor/command.ts";

const USAGE = `npm run reviews:import -- FILE [--jobs JOBS.csv]

Imports reviews from a CSV file (columns in docs/importing-reviews.md) or a Google Business Profile
reviews export (JSON). Imported reviews are drafts (data/drafts/) until verified; with --jobs, a
review whose author and date match a job (the customer's name as shown, the review written on the
job's day or up to ${JOB_WINDOW_DAYS} days after) is verified by that job record and published.
Importing the same file again adds nothing; with --jobs it verifies the drafts an earlier import left
that a job now matches.`;

async function main(): Promise<number> {
  const { values, positionals, dataDir } = parseCommandLine({ jobs: { type: "string" } }, USAGE);
  const [file] = positionals;
  if (!file) throw new UsageError(USAGE);
  const jobsFile = typeof values.jobs === "string" ? values.jobs : undefined;
  const report = importReviews({ dataDir, file, ...(jobsFile ? { jobsFile } : {}) });
  for (const note of report.notes) console.log(`note: ${note}`);
  for (const added of report.added) {
    const how = added.published
      ? `published${added.job ? ` (verified by job ${added.job})` : ""}`
      : `draft, lacks ${added.lacks.join(", ")}`;
    console.log(`added    ${added.where}: ${added.id}, ${how}`);
  }
  for (const verified of report.verified) {
    const how = verified.published ? "published" : `still a draft, lacks ${verified.lacks.join(", ")}`;
    console.log(`verified ${verified.where}: draft ${verified.id} matches job ${verified.job}, ${how}`);
  }
  for (const duplicate of report.duplicates) {
    console.log(`skipped  ${duplicate.where}: already imported (source id ${duplicate.sourceId})`);
  }
  for (const refused of report.refused) console.log(`refused  ${refused.where}: ${refused.reason}`);
  const published = report.added.filter((a) => a.published).length;
  const verifiedDrafts =
    report.verified.length > 0 ? `${report.verified.length} earlier drafts verified by a job, ` : "";
  console.log(
    `${report.added.length} added (${published} published, ${report.added.length - published} drafts), ${verifiedDrafts}${report.duplicates.length} duplicates skipped, ${report.refused.length} refused.`,
  );
  const check = checkDataFolder(dataDir);
  return check !== 0 || report.refused.length > 0 ? 1 : 0;
}

await runCommand(main);
