import type { Business } from "@riverbend/shared/schemas/business.ts";
import { reviewContext } from "../check-references.ts";
import { checkReviewFile, todayIn } from "../load-dataset.ts";
import type { DataProblem } from "../problems.ts";
import type { SourceFile } from "../read-files.ts";
import { readFolder } from "./data-folder.ts";

/** A draft and what keeps it from being published. */
export interface DraftStatus {
  id: string;
  file: string;
  /** Fields missing or wrong, verification first: what an editor has to supply. */
  lacks: string[];
  problems: DataProblem[];
}

/** Problems of a review that is about to be written or moved: the data check's rules for one file. */
export function checkOne(file: SourceFile, business: Business, today = todayIn(business.time_zone)): DataProblem[] {
  return checkReviewFile(file, reviewContext(business, today)).problems;
}

const topField = (field: string) => field.replace(/[.[].*$/, "");

/** Every draft in `drafts/` with what it lacks; an empty `lacks` means it can be published. */
export function draftStatuses(dataDir: string, business: Business, today?: string): DraftStatus[] {
  return readFolder(dataDir, "drafts").map((file) => {
    const problems = checkOne(file, business, today);
    const fields = [...new Set(problems.map((p) => topField(p.field)))];
    const verification = fields.filter((f) => f === "verified" || f === "verification");
    const lacks = [
      ...(verification.length > 0 ? ["verification"] : []),
      ...fields.filter((f) => f !== "verified" && f !== "verification"),
    ];
    return { id: file.stem, file: file.display, lacks, problems };
  });
}

/** The lines `data:check` prints for the drafts: one per draft, then its problems indented. */
export function describeDrafts(statuses: readonly DraftStatus[]): string[] {
  if (statuses.length === 0) return [];
  const lines = [`${statuses.length} draft${statuses.length === 1 ? "" : "s"} (not published):`];
  for (const draft of statuses) {
    if (draft.lacks.length === 0) {
      lines.push(`  ${draft.file}: complete; publish it with npm run review:verify -- ${draft.id}`);
      continue;
    }
    const area = draft.lacks.includes("service_area") ? " --area AREA" : "";
    const verify = `; complete it with npm run review:verify -- ${draft.id} --method job_record|invoice|invitation --reference NUMBER${area}`;
    lines.push(`  ${draft.file}: lacks ${draft.lacks.join(", ")}${verify}`);
    for (const problem of draft.problems.filter((p) => !/^verifi/.test(p.field))) {
      lines.push(`    ${problem.field}: ${problem.message}`);
    }
  }
  return lines;
}
