import type { Business } from "@riverbend/shared/schemas/business.ts";
import { closest } from "@riverbend/shared/schemas/format-issue.ts";
import { REVIEW_SOURCES } from "@riverbend/shared/schemas/review.ts";
import type { DataProblem } from "./problems.ts";

/**
 * Technicians go by display name in review files, but the API also accepts their ids: a file that
 * names `luis-ortega` is read as "Luis O.". Returns the JSON with such ids replaced (a copy).
 */
export function technicianIdsToNames(json: unknown, business: Business): unknown {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return json;
  const record = json as Record<string, unknown>;
  if (!Array.isArray(record.technicians)) return json;
  const names = new Map(business.technicians.map((t) => [t.id, t.name]));
  const known = new Set(names.values());
  const technicians = record.technicians.map((value) =>
    typeof value === "string" && !known.has(value) ? (names.get(value) ?? value) : value,
  );
  return { ...record, technicians };
}

/** Replaces the schema's message for an unknown `source` with one that suggests the closest. */
export function sourceHint(problem: DataProblem, json: unknown): DataProblem {
  if (problem.field !== "source" || json === null || typeof json !== "object") return problem;
  const value = (json as Record<string, unknown>).source;
  if (typeof value !== "string") return problem;
  const near = closest(value.toLowerCase(), REVIEW_SOURCES);
  const choices = REVIEW_SOURCES.map((s) => JSON.stringify(s)).join(", ");
  return {
    ...problem,
    message: near
      ? `unknown source ${JSON.stringify(value)}; did you mean ${JSON.stringify(near)}?`
      : `unknown source ${JSON.stringify(value)}; use one of ${choices}`,
  };
}
