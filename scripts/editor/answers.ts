import { REVIEW_SOURCES, VerificationMethodSchema } from "@riverbend/shared/schemas/review.ts";
import type { CatalogueEntry } from "../../src/data/catalogue-match.ts";
import { resolveReference } from "../../src/data/editor/compose-review.ts";
import { displayName } from "../../src/data/editor/display-name.ts";
import { parseRating } from "../../src/data/import/candidate.ts";
import { splitList } from "../../src/data/import/csv-table.ts";
import { parseLocalDate } from "../../src/data/import/dates.ts";

/** Answer parsers shared by flags and prompts: each returns the value or an error to show. */
export type Parsed<T> = T | { error: string };

export const isError = <T>(value: Parsed<T>): value is { error: string } =>
  typeof value === "object" && value !== null && "error" in value;

export function parseDateAnswer(answer: string, timeZone: string): Parsed<string> {
  return (
    parseLocalDate(answer, timeZone) ?? { error: `${JSON.stringify(answer)} is not a date; write e.g. 2025-03-02` }
  );
}

export function parseRatingAnswer(answer: string): Parsed<number> {
  return parseRating(answer) ?? { error: "the rating is a whole number of stars from 1 to 5" };
}

export function parseAuthorAnswer(answer: string): Parsed<string> {
  return (
    displayName(answer) ?? { error: "give the customer's name as shown, e.g. Maria G. (never an e-mail or phone)" }
  );
}

export function parseMethodAnswer(answer: string): Parsed<string | undefined> {
  if (answer === "") return undefined;
  const method = answer.toLowerCase().replace(/[^a-z]+/g, "_");
  return VerificationMethodSchema.safeParse(method).success
    ? method
    : { error: "the method is job_record, invoice or invitation (or leave it empty to save a draft)" };
}

export function parseSourceAnswer(answer: string): Parsed<string> {
  const source = answer.toLowerCase();
  return (REVIEW_SOURCES as readonly string[]).includes(source)
    ? source
    : { error: `the source is one of ${REVIEW_SOURCES.join(", ")}` };
}

/**
 * A list of catalogue entries given by number (from the list shown), id, name or a close
 * misspelling; technicians come back as display names, services and areas as ids.
 */
export function parseCatalogueAnswer(
  answer: string,
  kind: "technician" | "service" | "service area",
  entries: readonly CatalogueEntry[],
  as: "id" | "name",
): Parsed<string[]> {
  const values: string[] = [];
  for (const item of splitList(answer)) {
    const numbered = /^\d+$/.test(item) ? entries[Number(item) - 1] : undefined;
    const resolved = resolveReference(kind, numbered ? numbered.id : item, entries, as);
    if ("error" in resolved) return resolved;
    if (!values.includes(resolved.value)) values.push(resolved.value);
  }
  return values;
}

/** The numbered list of choices a prompt shows. */
export function choiceList(entries: readonly CatalogueEntry[]): string {
  return entries.map((e, i) => `  ${String(i + 1).padStart(2)}. ${e.name} (${e.id})`).join("\n");
}
