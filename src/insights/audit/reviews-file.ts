import { AuditReviewLineSchema } from "@riverbend/shared/schemas/analysis.ts";
import type { Business } from "@riverbend/shared/schemas/business.ts";
import { compareNewestFirst, type Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { TextReview } from "@riverbend/shared/schemas/review.ts";
import { LabelledFileError, parseJsonLines } from "../eval/read-labelled.ts";

/** The date of a line that gives none: the order of undated reviews is then their ids'. */
const UNDATED = "2026-01-01";

/**
 * A dataset of the reviews in a JSONL file (one `{id, rating, text}` a line, with date, technicians and
 * services when known) for the given business, so an audit can draw from quotes of reviews the analyser
 * has never seen. Throws LabelledFileError naming the file, line and field of the first bad line.
 */
export function datasetFromReviewsFile(content: string, file: string, business: Business): Dataset {
  const area = business.service_areas[0]?.id as string;
  const reviews: TextReview[] = parseJsonLines(content, file, AuditReviewLineSchema).map((line) => ({
    id: line.id,
    date: line.date ?? UNDATED,
    rating: line.rating,
    text: line.text,
    author: { name: "Reviewer" },
    verified: true,
    verification: { method: "invoice" },
    source: "direct",
    technicians: line.technicians ?? [],
    services: line.services ?? [],
    service_area: area,
  }));
  const ids = new Set<string>();
  for (const r of reviews) {
    if (ids.has(r.id)) throw new LabelledFileError(`${file}: id: review id ${r.id} occurs twice`);
    ids.add(r.id);
  }
  return { business, reviews: reviews.sort(compareNewestFirst), removed: [], sourceSha256: "" };
}
