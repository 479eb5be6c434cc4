import { ratingDistribution, summarize } from "../../documents/aggregate.ts";
import type { Business } from "../../schemas/business.ts";
import type { EntityInsight, InsightsDocument } from "../../schemas/insights.ts";
import type { EntityAliasesFile } from "../../schemas/insights-data.ts";
import type { TextReview as Review } from "../../schemas/review.ts";
import { aspectBreakdown } from "../aspects/build-aspects.ts";
import type { Judgements } from "../aspects/judgements.ts";
import type { Thresholds } from "../thresholds.ts";
import { type EntityCatalogue, type EntityKind, entityCatalogues } from "./catalogue.ts";
import { createMatcher } from "./mentions.ts";

type Entities = InsightsDocument["entities"];

/** The ids a review's structured fields name, per catalogue. */
function structuredIds(review: Review, kind: EntityKind, technicianIds: Map<string, string>): string[] {
  if (kind === "services") return review.services;
  if (kind === "service_areas") return [review.service_area];
  return review.technicians.flatMap((name) => technicianIds.get(name) ?? []);
}

function entityStats(
  entry: EntityCatalogue["entries"][number],
  judgements: Judgements,
  linked: readonly number[],
  textOnly: number,
  withAspects: boolean,
  thresholds: Thresholds,
): EntityInsight {
  const distribution = ratingDistribution(linked.map((i) => judgements.items[i]?.review as Review));
  const { count, mean } = summarize(distribution);
  return {
    id: entry.id,
    name: entry.name,
    aliases: entry.aliases,
    review_count: count,
    rating_value: mean,
    distribution,
    text_mentions: textOnly,
    aspects: withAspects ? aspectBreakdown(judgements, linked, thresholds) : null,
  };
}

function buildKind(
  catalogue: EntityCatalogue,
  judgements: Judgements,
  technicianIds: Map<string, string>,
  thresholds: Thresholds,
): EntityInsight[] {
  const matcher = createMatcher(catalogue);
  const linked = new Map(catalogue.entries.map((e) => [e.id, [] as number[]]));
  const textOnly = new Map(catalogue.entries.map((e) => [e.id, 0]));
  judgements.items.forEach((item, index) => {
    const structured = structuredIds(item.review, catalogue.kind, technicianIds);
    for (const id of structured) {
      const list = linked.get(id);
      if (list && list.at(-1) !== index) list.push(index);
    }
    for (const id of matcher.find(item.review.text)) {
      if (structured.includes(id)) continue;
      linked.get(id)?.push(index);
      textOnly.set(id, (textOnly.get(id) ?? 0) + 1);
    }
  });
  return catalogue.entries.map((entry) => {
    const reviews = linked.get(entry.id) ?? [];
    // No aspect breakdown per technician on a handful of reviews: that would be a public ranking of
    // people on noise. Services and areas are not people.
    const withAspects = catalogue.kind !== "technicians" || reviews.length >= thresholds.entity_min_reviews;
    return entityStats(entry, judgements, reviews, textOnly.get(entry.id) ?? 0, withAspects, thresholds);
  });
}

/**
 * Figures per technician, service and area, in catalogue order. A review is linked by its
 * structured fields or by an unambiguous mention in its text (aliases of entities.json).
 */
export function buildEntities(
  business: Business,
  aliases: EntityAliasesFile,
  judgements: Judgements,
  thresholds: Thresholds,
): Entities {
  const catalogues = entityCatalogues(business, aliases);
  const technicianIds = new Map(business.technicians.map((t) => [t.name, t.id]));
  return {
    technicians: buildKind(catalogues.technicians, judgements, technicianIds, thresholds),
    services: buildKind(catalogues.services, judgements, technicianIds, thresholds),
    service_areas: buildKind(catalogues.service_areas, judgements, technicianIds, thresholds),
  };
}
