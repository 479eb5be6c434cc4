import { ASPECT_IDS } from "@riverbend/shared/schemas/analysis.ts";
import type { Business } from "@riverbend/shared/schemas/business.ts";
import type { AspectBreakdown, EntityInsight, InsightsDocument } from "@riverbend/shared/schemas/insights.ts";
import type { EntityAliasesFile } from "@riverbend/shared/schemas/insights-data.ts";
import type { TextReview as Review } from "@riverbend/shared/schemas/review.ts";
import { ratingDistribution, summarize } from "../../reviews-document/aggregate.ts";
import { aspectBreakdown } from "../aspects/build-aspects.ts";
import { polarityCounts } from "../aspects/counts.ts";
import type { Judgements } from "../aspects/judgements.ts";
import { emptyTally } from "../aspects/judgements.ts";
import type { Thresholds } from "../thresholds.ts";
import { type EntityCatalogue, type EntityKind, entityCatalogues } from "./catalogue.ts";
import { createMatcher } from "./mentions.ts";
import { namePattern, technicianTallies } from "./technician-judgements.ts";

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
  aspects: AspectBreakdown[] | null,
  withRatings: boolean,
): EntityInsight {
  const distribution = ratingDistribution(linked.map((i) => judgements.items[i]?.review as Review));
  const { count, mean } = summarize(distribution);
  return {
    id: entry.id,
    name: entry.name,
    aliases: entry.aliases,
    review_count: count,
    rating_value: withRatings ? mean : null,
    distribution: withRatings ? distribution : null,
    text_mentions: textOnly,
    aspects,
  };
}

/** A technician's breakdown from the clauses about them only (technician-judgements.ts). */
function technicianBreakdown(
  catalogue: EntityCatalogue,
  entry: EntityCatalogue["entries"][number],
  judgements: Judgements,
  reviews: readonly number[],
  structured: ReadonlyMap<number, readonly string[]>,
  thresholds: Thresholds,
): AspectBreakdown[] | null {
  const names = namePattern([entry.name, ...entry.aliases]);
  if (!names) return null;
  const others = namePattern(catalogue.entries.filter((e) => e.id !== entry.id).flatMap((e) => [e.name, ...e.aliases]));
  const own = new Set(reviews.filter((i) => (structured.get(i) ?? []).length === 1));
  const tallies = technicianTallies(judgements.items, reviews, names, others, own);
  return ASPECT_IDS.map((id) => ({ id, ...polarityCounts(tallies.get(id) ?? emptyTally(), thresholds) }));
}

function buildKind(
  catalogue: EntityCatalogue,
  judgements: Judgements,
  technicianIds: Map<string, string>,
  thresholds: Thresholds,
  technicianRatings: boolean,
): EntityInsight[] {
  const structuredOf = new Map<number, string[]>();
  const matcher = createMatcher(catalogue);
  const linked = new Map(catalogue.entries.map((e) => [e.id, [] as number[]]));
  const textOnly = new Map(catalogue.entries.map((e) => [e.id, 0]));
  judgements.items.forEach((item, index) => {
    const structured = structuredIds(item.review, catalogue.kind, technicianIds);
    structuredOf.set(index, structured);
    for (const id of structured) {
      const list = linked.get(id);
      if (list && list.at(-1) !== index) list.push(index);
    }
    // A service counts by the job (the structured field), not by a symptom the text mentions (issue 13, point 9).
    if (catalogue.kind === "services") return;
    for (const id of matcher.find(item.review.text)) {
      if (structured.includes(id)) continue;
      linked.get(id)?.push(index);
      textOnly.set(id, (textOnly.get(id) ?? 0) + 1);
    }
  });
  return catalogue.entries.map((entry) => {
    const reviews = linked.get(entry.id) ?? [];
    const textCount = textOnly.get(entry.id) ?? 0;
    if (catalogue.kind !== "technicians") {
      return entityStats(entry, judgements, reviews, textCount, aspectBreakdown(judgements, reviews, thresholds), true);
    }
    // No aspect breakdown per technician on a handful of reviews: that would be a public ranking of
    // people on noise. A review's stars judge the job, not a person: no star figures unless business.json asks.
    const aspects =
      reviews.length >= thresholds.entity_min_reviews
        ? technicianBreakdown(catalogue, entry, judgements, reviews, structuredOf, thresholds)
        : null;
    return entityStats(entry, judgements, reviews, textCount, aspects, technicianRatings);
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
    technicians: buildKind(
      catalogues.technicians,
      judgements,
      technicianIds,
      thresholds,
      business.insights?.technician_ratings ?? false,
    ),
    services: buildKind(catalogues.services, judgements, technicianIds, thresholds, true),
    service_areas: buildKind(catalogues.service_areas, judgements, technicianIds, thresholds, true),
  };
}
