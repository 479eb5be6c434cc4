import type { ValidationIssue } from "../schemas/errors.ts";
import { closest } from "../schemas/format-issue.ts";
import { foldText } from "./fold.ts";
import type { SearchIndex } from "./search-index.ts";

/**
 * A technician or service the data does not know is a 400 naming the valid values, not an empty
 * result: an agent would read "0 reviews" as "nobody mentions Luiz", when Luiz is a typo of Luis.
 */
function unknownValue(
  path: string,
  given: string,
  valid: readonly string[],
  near: string | undefined,
): ValidationIssue {
  const suggestion = near ? `did you mean "${near}"? ` : "";
  const shown = given.length > 60 ? `${given.slice(0, 59)}…` : given;
  return {
    path,
    code: "unknown_value",
    message: `"${shown}" is not known; ${suggestion}valid values: ${valid.join(", ")}`,
  };
}

/** The known key nearest to a given one; none for a long one, which is no typo (and costs its length per key). */
const nearest = (key: string, known: readonly string[]) => (key.length > 60 ? undefined : closest(key, known));

/** The display names a technician key (id, display name or first name, any case) may mean. */
export function resolveTechnician(index: SearchIndex, given: string): readonly string[] | ValidationIssue {
  const key = foldText(given.trim());
  const names = index.technicianKeys.get(key);
  if (names) return names;
  const valid = index.business.technicians.map((t) => t.name);
  const near = nearest(key, [...index.technicianKeys.keys()]);
  const named = near === undefined ? undefined : index.technicianKeys.get(near)?.[0];
  return unknownValue("mentions_technician", given, valid, named);
}

/** The lower-case service id, if the business offers it or a review mentions it. */
export function resolveService(index: SearchIndex, given: string): string | ValidationIssue {
  const id = given.trim().toLowerCase();
  const valid = [
    ...new Set([...index.business.services.map((s) => s.id.toLowerCase()), ...index.facets.service.keys()]),
  ];
  if (valid.includes(id)) return id;
  return unknownValue("mentions_service", given, valid, nearest(id, valid));
}

/** The area id a given one means (any case). */
export function resolveArea(index: SearchIndex, given: string): string | ValidationIssue {
  const id = given.trim().toLowerCase();
  const valid = index.business.service_areas.map((a) => a.id);
  const found = valid.find((v) => v.toLowerCase() === id);
  return found ?? unknownValue("area", given, valid, nearest(id, valid));
}

/** The topic id a given one means (any case): the topics of the build's insights. */
export function resolveTopic(index: SearchIndex, given: string): string | ValidationIssue {
  const id = given.trim().toLowerCase();
  const valid = [...index.facets.topic.keys()];
  const found = valid.find((v) => v.toLowerCase() === id);
  return found ?? unknownValue("topic", given, valid, nearest(id, valid));
}
