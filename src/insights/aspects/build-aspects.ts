import { ASPECT_IDS, type AspectId } from "@riverbend/shared/schemas/analysis.ts";
import type { AspectBreakdown, AspectInsight } from "@riverbend/shared/schemas/insights.ts";
import type { Thresholds } from "../thresholds.ts";
import { polarityCounts } from "./counts.ts";
import { type Permalink, selectEvidence } from "./evidence.ts";
import type { Judgements } from "./judgements.ts";
import { ASPECT_TEXT } from "./labels.ts";
import { buildTrend, monthsBetween } from "./trend.ts";
import { round4 } from "./wilson.ts";

/** Counts per aspect over a subset of reviews (indices): the entity breakdowns use the same numbers. */
export function aspectBreakdown(
  judgements: Judgements,
  indices: readonly number[],
  thresholds: Thresholds,
): AspectBreakdown[] {
  return ASPECT_IDS.map((id) => ({ id, ...polarityCounts(judgements.tally(id, indices), thresholds) }));
}

function aspectInsight(
  id: AspectId,
  judgements: Judgements,
  months: readonly string[],
  thresholds: Thresholds,
  permalink: Permalink,
): AspectInsight {
  const counts = polarityCounts(judgements.tally(id), thresholds);
  const quotes = (bucket: "positive" | "negative" | "neutral" | "mixed") =>
    selectEvidence(judgements, id, bucket, thresholds, permalink);
  const total = judgements.items.length;
  return {
    id,
    label: ASPECT_TEXT[id].label,
    description: ASPECT_TEXT[id].description,
    ...counts,
    mention_rate: total === 0 ? 0 : round4(counts.mentions / total),
    trend: buildTrend(judgements, id, months, thresholds),
    evidence: {
      positive: quotes("positive"),
      negative: quotes("negative"),
      neutral: quotes("neutral"),
      mixed: quotes("mixed"),
    },
  };
}

/** Every aspect of the taxonomy, in its order, over reviews sorted newest first. */
export function buildAspects(judgements: Judgements, thresholds: Thresholds, permalink: Permalink): AspectInsight[] {
  const last = judgements.months[0];
  const first = judgements.months.at(-1);
  const months = first && last ? monthsBetween(first, last) : [];
  return ASPECT_IDS.map((id) => aspectInsight(id, judgements, months, thresholds, permalink));
}
