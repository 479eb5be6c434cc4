import type { PolarityCounts } from "@riverbend/shared/schemas/insights.ts";
import type { Thresholds } from "../thresholds.ts";
import type { Tally } from "./judgements.ts";
import { round4, wilsonLowerBound } from "./wilson.ts";

/** share_positive = positive / (positive + negative), published only from min_polar_reviews on. */
export function sharePositive(counts: Tally, thresholds: Thresholds): number | null {
  const polar = counts.positive + counts.negative;
  return polar >= thresholds.min_polar_reviews ? round4(counts.positive / polar) : null;
}

export function polarityCounts(counts: Tally, thresholds: Thresholds): PolarityCounts {
  const share = sharePositive(counts, thresholds);
  const polar = counts.positive + counts.negative;
  return {
    mentions: counts.positive + counts.negative + counts.neutral + counts.mixed,
    ...counts,
    share_positive: share,
    wilson_lower: share === null ? null : round4(wilsonLowerBound(counts.positive, polar, thresholds.wilson_z)),
  };
}
