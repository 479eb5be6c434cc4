import type { Business } from "@riverbend/shared/schemas/business.ts";
import { type CatalogueEntry, matchCatalogue } from "../catalogue-match.ts";

/** What an editor or an import gives for one review, before catalogue names are resolved. */
export interface ReviewInput {
  id: string;
  date: string;
  rating: number;
  title?: string | undefined;
  text?: string | undefined;
  author: string;
  locality?: string | undefined;
  technicians: readonly string[];
  services: readonly string[];
  area?: string | undefined;
  method?: string | undefined;
  reference?: string | undefined;
  response?: { date: string; text: string } | undefined;
  updated?: string | undefined;
  source: string;
  sourceId?: string | undefined;
}

/**
 * Resolves names, ids and close misspellings against the catalogue. Returns the canonical value
 * (technicians by display name, services and areas by id) or an explanation naming the choices.
 */
export function resolveReference(
  kind: "technician" | "service" | "service area",
  value: string,
  entries: readonly CatalogueEntry[],
  as: "id" | "name",
): { value: string } | { error: string } {
  const match = matchCatalogue(value, entries);
  if (match.entry) return { value: as === "id" ? match.entry.id : match.entry.name };
  const hint = match.suggestion ? `did you mean ${JSON.stringify(match.suggestion.name)}?` : "choose one of";
  const choices = entries.map((e) => e.name).join(", ");
  return { error: `unknown ${kind} ${JSON.stringify(value)}; ${hint} (${choices})` };
}

/**
 * Builds a review file's JSON, fields in the usual order, from an editor's input. Unresolvable
 * references are returned as errors; `verified` is written only together with a verification method,
 * so a review without one stays a draft. The result still goes through the data check.
 */
export function composeReview(
  input: ReviewInput,
  business: Business,
): { json: Record<string, unknown>; errors: string[] } {
  const errors: string[] = [];
  const resolveAll = (
    kind: "technician" | "service" | "service area",
    values: readonly string[],
    entries: readonly CatalogueEntry[],
    as: "id" | "name",
  ) =>
    values.flatMap((value) => {
      const resolved = resolveReference(kind, value, entries, as);
      if ("error" in resolved) {
        errors.push(resolved.error);
        return [];
      }
      return [resolved.value];
    });
  const technicians = [...new Set(resolveAll("technician", input.technicians, business.technicians, "name"))];
  const services = [...new Set(resolveAll("service", input.services, business.services, "id"))];
  const [area] = input.area ? resolveAll("service area", [input.area], business.service_areas, "id") : [];
  const json: Record<string, unknown> = {
    id: input.id,
    date: input.date,
    rating: input.rating,
    ...(input.title ? { title: input.title } : {}),
    ...(input.text ? { text: input.text } : {}),
    author: { name: input.author, ...(input.locality ? { locality: input.locality } : {}) },
    ...(input.method
      ? {
          verified: true,
          verification: { method: input.method, ...(input.reference ? { reference: input.reference } : {}) },
        }
      : {}),
    source: input.source,
    ...(input.sourceId ? { source_id: input.sourceId } : {}),
    technicians,
    services,
    ...(area ? { service_area: area } : {}),
    ...(input.response ? { response: input.response } : {}),
    ...(input.updated ? { updated: input.updated } : {}),
  };
  return { json, errors };
}
