import { createHash } from "node:crypto";
import { displayName } from "../editor/display-name.ts";
import { type ImportCandidate, parseRating, type ReadResult, type RefusedRow } from "./candidate.ts";
import { aliasMap, readCsv, splitList } from "./csv-table.ts";
import { parseLocalDate } from "./dates.ts";

/** The columns of a reviews CSV (docs/importing-reviews.md), each with the other headers it accepts. */
export const REVIEW_COLUMNS = {
  date: ["review_date", "created", "created_at", "posted", "posted_on", "date_posted", "submitted"],
  rating: ["stars", "star_rating", "score", "rating_out_of_5"],
  author: ["name", "reviewer", "reviewer_name", "author_name", "customer", "customer_name", "client"],
  text: ["review", "comment", "comments", "body", "review_text", "review_body", "content", "feedback"],
  title: ["headline", "subject"],
  locality: ["city", "town", "location"],
  technicians: ["technician", "tech", "techs", "plumber"],
  services: ["service", "job_type"],
  area: ["service_area", "region"],
  reply: ["owner_reply", "owner_response", "response", "reply_text", "response_text"],
  reply_date: ["response_date", "owner_reply_date", "owner_response_date"],
  id: ["source_id", "review_id", "external_id"],
  source: [],
  method: ["verification", "verification_method"],
  reference: ["verification_reference", "job", "job_number", "invoice", "invoice_number"],
} as const;

const ALIASES = aliasMap(REVIEW_COLUMNS);

/** A row without an id column still gets a stable one, so the same file imported twice adds nothing. */
function contentId(values: ReadonlyMap<string, string>): string {
  const parts = ["date", "author", "rating", "text"].map((key) => values.get(key) ?? "");
  return `row-${createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 16)}`;
}

/** Reads a reviews CSV export into import candidates, one per row, or the reason a row is refused. */
export function readReviewsCsv(text: string, timeZone: string): ReadResult {
  const { rows, ignored, columns } = readCsv(text, ALIASES);
  const notes = ignored.length > 0 ? [`columns ignored (not in the documented list): ${ignored.join(", ")}`] : [];
  const missing = ["date", "rating", "author"].filter((c) => !columns.includes(c));
  if (missing.length > 0) {
    return {
      candidates: [],
      notes,
      refused: [
        { where: "line 1", reason: `the header has no ${missing.join(", ")} column; see docs/importing-reviews.md` },
      ],
    };
  }
  const candidates: ImportCandidate[] = [];
  const refused: RefusedRow[] = [];
  for (const { line, values } of rows) {
    const where = `line ${line}`;
    const refuse = (reason: string) => refused.push({ where, reason });
    const rawDate = values.get("date");
    const date = rawDate ? parseLocalDate(rawDate, timeZone) : undefined;
    if (!date) {
      refuse(rawDate ? `date ${JSON.stringify(rawDate)} is not a date (write 2025-03-02 or 03/02/2025)` : "no date");
      continue;
    }
    const rating = parseRating(values.get("rating"));
    if (rating === undefined) {
      const given = values.get("rating");
      refuse(given ? `rating ${JSON.stringify(given)} is not a whole number of stars from 1 to 5` : "no rating");
      continue;
    }
    const author = displayName(values.get("author") ?? "");
    if (!author) {
      refuse(
        values.get("author")
          ? "the author is not a name (an e-mail address or phone number is never published)"
          : "no author name",
      );
      continue;
    }
    const reply = values.get("reply");
    const replyDate = values.get("reply_date");
    const responseDate = replyDate ? parseLocalDate(replyDate, timeZone) : date;
    if (reply && !responseDate) {
      refuse(`reply_date ${JSON.stringify(replyDate)} is not a date`);
      continue;
    }
    candidates.push({
      where,
      source: values.get("source")?.toLowerCase() ?? "csv_import",
      sourceId: values.get("id") ?? contentId(values),
      date,
      rating,
      author,
      title: values.get("title"),
      text: values.get("text"),
      locality: values.get("locality"),
      technicians: splitList(values.get("technicians")),
      services: splitList(values.get("services")),
      area: values.get("area"),
      method: values
        .get("method")
        ?.toLowerCase()
        .replace(/[^a-z]+/g, "_"),
      reference: values.get("reference"),
      response: reply && responseDate ? { date: responseDate, text: reply } : undefined,
    });
  }
  return { candidates, refused, notes };
}
