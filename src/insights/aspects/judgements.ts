import { ASPECT_IDS, type AspectId, type AspectPolarity } from "@riverbend/shared/schemas/analysis.ts";
import type { AnalysedReview } from "../analysed-review.ts";

export const POLARITIES = ["positive", "negative", "neutral", "mixed"] as const;

export type Tally = Record<AspectPolarity, number>;

export const emptyTally = (): Tally => ({ positive: 0, negative: 0, neutral: 0, mixed: 0 });

const ASPECT_INDEX = new Map(ASPECT_IDS.map((id, i) => [id, i]));

/**
 * Each review's polarity per aspect in one typed array, read by every count, trend and breakdown:
 * at 100k reviews the aggregation walks this table dozens of times, never the analysis objects.
 */
export class Judgements {
  readonly items: readonly AnalysedReview[];
  /** "2025-03" per review: the month of its (local) date. */
  readonly months: readonly string[];
  private readonly codes: Int8Array;

  constructor(items: readonly AnalysedReview[]) {
    this.items = items;
    this.months = items.map((item) => item.review.date.slice(0, 7));
    this.codes = new Int8Array(items.length * ASPECT_IDS.length).fill(-1);
    // Rows of the compact form start [aspect index, polarity index] in the orders of ASPECT_IDS and POLARITIES.
    items.forEach((item, i) => {
      for (const row of item.encoded[0]) this.codes[i * ASPECT_IDS.length + (row[0] as number)] = row[1] as number;
    });
  }

  /** The review's polarity about the aspect, or undefined when it does not judge it. */
  polarity(index: number, aspect: AspectId): AspectPolarity | undefined {
    return this.reader(aspect)(index);
  }

  /** polarity() for one aspect, with the column looked up once: loops over 100k reviews use this. */
  reader(aspect: AspectId): (index: number) => AspectPolarity | undefined {
    const codes = this.codes;
    const width = ASPECT_IDS.length;
    const column = ASPECT_INDEX.get(aspect) ?? 0;
    return (index) => POLARITIES[codes[index * width + column] ?? -1];
  }

  /** Counts over all reviews, or over the given review indices (an entity's reviews). */
  tally(aspect: AspectId, indices?: readonly number[]): Tally {
    const counts = [0, 0, 0, 0];
    const a = ASPECT_INDEX.get(aspect) ?? 0;
    const width = ASPECT_IDS.length;
    if (indices) {
      for (const i of indices) {
        const code = this.codes[i * width + a] ?? -1;
        if (code >= 0) counts[code] = (counts[code] ?? 0) + 1;
      }
    } else {
      for (let i = 0; i < this.items.length; i++) {
        const code = this.codes[i * width + a] ?? -1;
        if (code >= 0) counts[code] = (counts[code] ?? 0) + 1;
      }
    }
    const [positive = 0, negative = 0, neutral = 0, mixed = 0] = counts;
    return { positive, negative, neutral, mixed };
  }
}
