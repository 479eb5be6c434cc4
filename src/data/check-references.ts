import type { Business } from "../schemas/business.ts";
import type { Review } from "../schemas/review.ts";
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
  serviceIds: ReadonlySet<string>;
  areaIds: ReadonlySet<string>;
}

/** Catalogue lookups built once per load, not once per review. */
export function reviewContext(business: Business, today: string): ReviewContext {
  return {
    today,
    technicians: new Map(business.technicians.map((t) => [t.name, t])),
    serviceIds: new Set(business.services.map((s) => s.id)),
    areaIds: new Set(business.service_areas.map((a) => a.id)),
  };
}

function list(values: Iterable<string>): string {
  return [...values].map((v) => JSON.stringify(v)).join(", ");
}

/**
 * Cross-field and cross-file rules for one review: references, file name, date order. It takes the
 * fields that passed the schema, so a file with a type error still gets its references checked.
 */
export function checkReview(
  review: Partial<Review>,
  stem: string,
  file: string,
  context: ReviewContext,
): DataProblem[] {
  const problems: DataProblem[] = [];
  const add = (field: string, message: string) => problems.push({ file, field, message });
  const { today, technicians, serviceIds, areaIds } = context;

  if (review.id !== undefined && review.id !== stem) {
    add("id", `must equal the file name "${stem}", got ${JSON.stringify(review.id)}; rename the file or fix the id`);
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
      add(
        `technicians[${index}]`,
        `unknown technician ${JSON.stringify(name)}; use a display name from business.json: ${list(technicians.keys())}`,
      );
    } else if (review.date && Number(review.date.slice(0, 4)) < technician.since) {
      add(
        `technicians[${index}]`,
        `${name} joined in ${technician.since}, after this review's date ${review.date}; check the name or the date`,
      );
    }
  });
  review.services?.forEach((id, index) => {
    if (!serviceIds.has(id)) {
      add(`services[${index}]`, `unknown service id ${JSON.stringify(id)}; use one of ${list(serviceIds)}`);
    }
  });
  if (review.service_area !== undefined && !areaIds.has(review.service_area)) {
    add("service_area", `unknown service area id ${JSON.stringify(review.service_area)}; use one of ${list(areaIds)}`);
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
