import { existsSync } from "node:fs";
import { closest } from "@riverbend/shared/schemas/format-issue.ts";
import { RemovedReviewSchema } from "@riverbend/shared/schemas/removed-review.ts";
import {
  deleteReview,
  loadBusiness,
  readFolder,
  reviewFile,
  takenIds,
  writeReviewJson,
} from "../src/data/editor/data-folder.ts";
import { todayIn } from "../src/data/load-dataset.ts";
import { isError, parseDateAnswer } from "./editor/answers.ts";
import { checkDataFolder, parseCommandLine, runCommand, UsageError } from "./editor/command.ts";

const USAGE = `npm run review:remove -- ID --reason "customer request" [--date YYYY-MM-DD]

Takes a review down: data/reviews/ID.json (or a draft) is deleted and data/removed/ID.json records
the date, the reason (kept in the data folder, never published) and the source id, so the id is
never reused and an import does not bring the review back. After the next build (npm run publish)
the review is in no document, feed or index, and its permalink says "removed on DATE" (410 Gone
where the host reads _headers or the nginx example).`;

const FLAGS = { reason: { type: "string" }, date: { type: "string" } } as const;

async function main(): Promise<number> {
  const { values, positionals, dataDir } = parseCommandLine(FLAGS, USAGE);
  const [id] = positionals;
  const reason = typeof values.reason === "string" ? values.reason.trim() : "";
  if (!id || reason === "") throw new UsageError(`An id and --reason are required.\n\n${USAGE}`);
  if (existsSync(reviewFile(dataDir, "removed", id))) throw new UsageError(`${id} was already removed.`);
  const folder = existsSync(reviewFile(dataDir, "reviews", id))
    ? "reviews"
    : existsSync(reviewFile(dataDir, "drafts", id))
      ? "drafts"
      : undefined;
  if (!folder) {
    const near = closest(id, [...takenIds(dataDir)]);
    throw new UsageError(
      `No review ${JSON.stringify(id)} in ${dataDir}/reviews${near ? `; did you mean ${near}?` : ""}`,
    );
  }
  const business = loadBusiness(dataDir);
  const today = todayIn(business.time_zone);
  const date = parseDateAnswer(typeof values.date === "string" ? values.date : today, business.time_zone);
  if (isError(date)) throw new UsageError(`--date: ${date.error}`);
  const review = (readFolder(dataDir, folder).find((f) => f.stem === id)?.json ?? {}) as Record<string, unknown>;
  // The removed page shows this date: it is never in the future nor before the review was written.
  if (date > today) throw new UsageError(`--date: ${date} is in the future (today is ${today})`);
  if (typeof review.date === "string" && date < review.date) {
    throw new UsageError(`--date: ${date} is before the review's date ${review.date}`);
  }
  const record = RemovedReviewSchema.parse({
    id,
    removed: date,
    reason,
    ...(typeof review.source === "string" ? { source: review.source } : {}),
    ...(typeof review.source_id === "string" ? { source_id: review.source_id } : {}),
  });
  writeReviewJson(dataDir, "removed", record);
  deleteReview(dataDir, folder, id);
  console.log(`Removed ${id} (${reason}) on ${date}; recorded in ${reviewFile(dataDir, "removed", id)}.`);
  if (folder === "reviews") console.log("Run npm run publish to take it off the site, the feeds and the index.");
  return checkDataFolder(dataDir);
}

await runCommand(main);
