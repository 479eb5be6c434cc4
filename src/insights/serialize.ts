import type { InsightsDocument } from "@riverbend/shared/schemas/insights.ts";

/** The published bytes: key order is the builders' order, so the same data gives the same file. */
export function serializeInsights(document: InsightsDocument): string {
  return JSON.stringify(document);
}
