import type { AspectId } from "@riverbend/shared/schemas/analysis.ts";
import type { AspectInsight } from "@riverbend/shared/schemas/insights.ts";
import type { Thresholds } from "../thresholds.ts";
import { sharePositive } from "./counts.ts";
import { emptyTally, type Judgements, type Tally } from "./judgements.ts";

type Trend = AspectInsight["trend"];

/** "2025-03" for every month from `first` to `last` (YYYY-MM), both included. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let year = Number(first.slice(0, 4));
  let month = Number(first.slice(5, 7));
  const end = Number(last.slice(0, 4)) * 12 + Number(last.slice(5, 7));
  while (year * 12 + month <= end) {
    months.push(`${year}-${String(month).padStart(2, "0")}`);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return months;
}

export const quarterOf = (month: string) => `${month.slice(0, 4)}-Q${Math.ceil(Number(month.slice(5, 7)) / 3)}`;

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function point(period: string, counts: Tally, thresholds: Thresholds) {
  const mentions = counts.positive + counts.negative + counts.neutral + counts.mixed;
  const { positive, negative } = counts;
  return { period, mentions, positive, negative, share_positive: sharePositive(counts, thresholds) };
}

/**
 * Mentions per calendar month over `months` (review dates are already local dates of the business),
 * rolled up to quarters when the median month has fewer than trend_min_monthly_mentions: a chart of
 * months with one or two reviews each shows noise, not a trend. Empty periods stay in the series.
 */
export function buildTrend(
  judgements: Judgements,
  aspect: AspectId,
  months: readonly string[],
  thresholds: Thresholds,
): Trend {
  const byMonth = new Map(months.map((m) => [m, emptyTally()]));
  const polarityOf = judgements.reader(aspect);
  for (let i = 0; i < judgements.items.length; i++) {
    const polarity = polarityOf(i);
    const counts = polarity && byMonth.get(judgements.months[i] ?? "");
    if (counts && polarity) counts[polarity] += 1;
  }
  const monthly = [...byMonth.values()].map((c) => c.positive + c.negative + c.neutral + c.mixed);
  if (median(monthly) >= thresholds.trend_min_monthly_mentions) {
    return { granularity: "month", points: [...byMonth].map(([m, c]) => point(m, c, thresholds)) };
  }
  const byQuarter = new Map<string, Tally>();
  for (const [month, counts] of byMonth) {
    const quarter = quarterOf(month);
    const total = byQuarter.get(quarter) ?? emptyTally();
    for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += counts[key];
    byQuarter.set(quarter, total);
  }
  return { granularity: "quarter", points: [...byQuarter].map(([q, c]) => point(q, c, thresholds)) };
}
