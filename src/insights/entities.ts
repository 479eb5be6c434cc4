import type { Dataset } from "../data/dataset.ts";
import { ratingDistribution, summarize } from "../documents/aggregate.ts";
import type { EntityStats, InsightsDocument } from "../schemas/insights.ts";
import type { Review } from "../schemas/review.ts";

function stats(id: string, name: string, reviews: readonly Review[]): EntityStats {
  const distribution = ratingDistribution(reviews);
  const { count, mean } = summarize(distribution);
  return { id, name, review_count: count, rating_value: mean, distribution };
}

function groupBy(reviews: readonly Review[], keys: (review: Review) => readonly string[]): Map<string, Review[]> {
  const groups = new Map<string, Review[]>();
  for (const review of reviews) {
    for (const key of keys(review)) {
      const group = groups.get(key);
      if (group) group.push(review);
      else groups.set(key, [review]);
    }
  }
  return groups;
}

/** Per-entity statistics from the structured review fields, in catalogue order. */
export function buildEntityInsights(dataset: Dataset): InsightsDocument["entities"] {
  const { business, reviews } = dataset;
  const byTechnician = groupBy(reviews, (r) => r.technicians);
  const byService = groupBy(reviews, (r) => r.services);
  const byArea = groupBy(reviews, (r) => [r.service_area]);
  return {
    technicians: business.technicians.map((t) => stats(t.id, t.name, byTechnician.get(t.name) ?? [])),
    services: business.services.map((s) => stats(s.id, s.name, byService.get(s.id) ?? [])),
    service_areas: business.service_areas.map((a) => stats(a.id, a.name, byArea.get(a.id) ?? [])),
  };
}

export function buildInsightsDocument(dataset: Dataset): InsightsDocument {
  return {
    as_of: dataset.reviews[0]?.date ?? null,
    review_count: dataset.reviews.length,
    entities: buildEntityInsights(dataset),
  };
}
