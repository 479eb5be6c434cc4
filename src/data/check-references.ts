import type { Business } from "@riverbend/shared/schemas/business.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { type CatalogueEntry, matchCatalogue } from "./catalogue-match.ts";
import type { DataProblem } from "./problems.ts";

/** Problems inside business.json that a schema cannot see: duplicate ids and names in catalogues. */
export function checkBusiness(business: Business, file: string): DataProblem[] {
  const problems: DataProblem[] = [];
  const unique = (list: readonly { id: string }[], field: string, key: "id" | "name" = "id") => {
    const seen = new Map<string, number>();
    list.forEach((item, index) => {
      const value = (item as Record<string, unknown>)[key] as string;
      const first = seen.get(value);
      if (first === undefined) seen.set(value, index);
      else
        problems.push({
          file,
          field: `${field}[${index}].${key}`,
          message: `duplicates ${field}[${first}].${key} ${JSON.stringify(value)}; every ${key} must be unique`,
        });
    });
  };
  unique(business.service_areas, "service_areas");
  unique(business.services, "services");
  unique(business.technicians, "technicians");
  unique(business.technicians, "technicians", "name");
  return problems;
}

export interface ReviewContext {
  /** Today's date in the business's time zone: nothing may be dated later. */
  today: string;
  technicians: ReadonlyMap<string, Business["technicians"][number]>;
  business: Business;
  serviceIds: ReadonlySet<string>;
  areaIds: ReadonlySet<string>;
}

/** Catalogue lookups built once per load, not once per review. */
export function reviewContext(business: Business, today: string): ReviewContext {
  return {
    today,
    business,
    technicians: new Map(business.technicians.map((t) => [t.name, t])),
    serviceIds: new Set(business.services.map((s) => s.id)),
    areaIds: new Set(business.service_areas.map((a) => a.id)),
  };
}

function list(values: Iterable<string>): string {
  return [...values].map((v) => JSON.stringify(v)).join(", ");
}

/** Why `value` is not a valid reference: given by name, misspelt, or unknown (then all choices). */
function unknownReference(kind: string, value: string, entries: readonly CatalogueEntry[], by: "id" | "name"): string {
  const match = matchCatalogue(value, entries);
  const show = (entry: CatalogueEntry) => JSON.stringify(by === "id" ? entry.id : entry.name);
  if (match.entry && by === "id" && match.by === "name") {
    return `${JSON.stringify(value)} is the name of the ${kind} ${JSON.stringify(match.entry.id)}; write its id ${show(match.entry)}`;
  }
  const near = match.entry ?? match.suggestion;
  if (near) return `unknown ${kind} ${JSON.stringify(value)}; did you mean ${show(near)}?`;
  return `unknown ${kind} ${JSON.stringify(value)}; use one of ${list(entries.map((e) => (by === "id" ? e.id : e.name)))}`;
}

/** The raw values of the reference fields, read before the schema so "Folsom" still gets its hint. */
export interface RawReferences {
  services?: readonly unknown[] | undefined;
  service_area?: unknown;
}

export function rawReferences(json: unknown): RawReferences {
  if (json === null || typeof json !== "object") return {};
  const { services, service_area } = json as Record<string, unknown>;
  return { services: Array.isArray(services) ? services : undefined, service_area };
}

const ID_DATE = /^(\d{4}-\d{2}-\d{2})-/;

/**
 * Cross-field and cross-file rules for one review: references, file name, date order. It takes the
 * fields that passed the schema, so a file with a type error still gets its references checked.
 */
export function checkReview(
  review: Partial<Review>,
  stem: string,
  file: string,
  context: ReviewContext,
  raw: RawReferences = review,
): DataProblem[] {
  const problems: DataProblem[] = [];
  const add = (field: string, message: string) => problems.push({ file, field, message });
  const { today, technicians, serviceIds, areaIds, business } = context;

  if (review.id !== undefined && review.id !== stem) {
    add("id", `must equal the file name "${stem}", got ${JSON.stringify(review.id)}; rename the file or fix the id`);
  }
  const idDate = review.id === undefined ? undefined : ID_DATE.exec(review.id)?.[1];
  if (idDate && review.date && idDate !== review.date) {
    add(
      "id",
      `starts with the date ${idDate} but the review's date is ${review.date}; fix the date, or rename the file and id to ${review.date}${review.id?.slice(10)}`,
    );
  }
  const future = (field: string, date: string) => {
    if (date > today) add(field, `must not be in the future (today is ${today}), got ${JSON.stringify(date)}`);
  };
  if (review.date) future("date", review.date);
  if (review.updated) {
    future("updated", review.updated);
    if (review.date && review.updated < review.date) {
      add("updated", `must be on or after the review date ${review.date}, got ${JSON.stringify(review.updated)}`);
    }
  }
  if (review.response) {
    future("response.date", review.response.date);
    if (review.date && review.response.date < review.date) {
      add(
        "response.date",
        `must be on or after the review date ${review.date}, got ${JSON.stringify(review.response.date)}`,
      );
    }
  }

  review.technicians?.forEach((name, index) => {
    const technician = technicians.get(name);
    if (!technician) {
      add(`technicians[${index}]`, unknownReference("technician", name, business.technicians, "name"));
    } else if (review.date && Number(review.date.slice(0, 4)) < technician.since) {
      add(
        `technicians[${index}]`,
        `${name} joined in ${technician.since}, after this review's date ${review.date}; check the name or the date`,
      );
    }
  });
  raw.services?.forEach((id, index) => {
    if (typeof id === "string" && !serviceIds.has(id)) {
      add(`services[${index}]`, unknownReference("service", id, business.services, "id"));
    }
  });
  if (typeof raw.service_area === "string" && !areaIds.has(raw.service_area)) {
    add("service_area", unknownReference("service area", raw.service_area, business.service_areas, "id"));
  }
  const duplicate = (values: readonly string[], field: string) => {
    const seen = new Set<string>();
    values.forEach((value, index) => {
      if (seen.has(value)) add(`${field}[${index}]`, `lists ${JSON.stringify(value)} twice; remove the repeat`);
      seen.add(value);
    });
  };
  duplicate(review.technicians ?? [], "technicians");
  duplicate(review.services ?? [], "services");
  return problems;
}
