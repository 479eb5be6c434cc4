import { ASPECT_IDS, type AspectId, type ClausePolarity } from "@riverbend/shared/schemas/analysis.ts";
import { CLASSES, type ClauseModel, OUTPUTS, pairFeature } from "./clause-model.ts";
import type { FeatureSink } from "./features.ts";

/** The cue of a reading the rule layer has no cue for: the learned layer's alone. */
export const MODEL_CUE = "model";

export interface ClauseReading {
  aspect: AspectId;
  polarity: ClausePolarity;
  /** Log-odds of the likeliest class against "does not judge the aspect", signed by polarity (0: neutral). */
  margin: number;
}

/**
 * Classifies clauses one at a time: reset, let `readFeatures` feed it, then read. Each feature counts
 * once per clause; word vectors count as their mean.
 */
export class ClauseClassifier implements FeatureSink {
  private readonly model: ClauseModel;
  private readonly seen: Uint32Array;
  private epoch = 0;
  private readonly sums = new Float64Array(OUTPUTS);
  private readonly dense = new Float64Array(OUTPUTS);
  private rows = 0;
  /** Lemma id of the word before (-1: none the model knows). */
  private previous = -1;

  constructor(model: ClauseModel) {
    this.model = model;
    this.seen = new Uint32Array(model.features);
  }

  reset(): void {
    this.epoch++;
    this.sums.set(this.model.bias);
    this.dense.fill(0);
    this.rows = 0;
    this.previous = -1;
  }

  word(lemma: string, negated: boolean, joined: boolean): void {
    const { model } = this;
    const id = model.lemmaIds.get(lemma) ?? -1;
    if (id >= 0) {
      const i = (negated ? model.negatedFeature : model.wordFeature)[id] as number;
      if (i >= 0) this.add(i);
      if (joined && this.previous >= 0) {
        const pair = pairFeature(model.pairs, this.previous, id);
        if (pair >= 0) this.add(pair);
      }
    }
    this.previous = id;
  }

  other(name: string): void {
    const i = this.model.others.get(name);
    if (i !== undefined) this.add(i);
  }

  vector(row: number): void {
    const { projected } = this.model;
    const at = row * OUTPUTS;
    for (let o = 0; o < OUTPUTS; o++) this.dense[o] = (this.dense[o] as number) + (projected[at + o] as number);
    this.rows++;
  }

  private add(feature: number): void {
    if (this.seen[feature] === this.epoch) return;
    this.seen[feature] = this.epoch;
    const { sparse } = this.model;
    const at = feature * OUTPUTS;
    for (let o = 0; o < OUTPUTS; o++) this.sums[o] = (this.sums[o] as number) + (sparse[at + o] as number);
  }

  /** The aspects the clause judges: each whose likeliest class beats "none" by the model's threshold. */
  read(): ClauseReading[] {
    const out: ClauseReading[] = [];
    const scale = this.rows > 0 ? 1 / this.rows : 0;
    ASPECT_IDS.forEach((aspect, a) => {
      let best = -1;
      let top = this.model.threshold;
      for (let k = 0; k < CLASSES.length; k++) {
        const o = a * CLASSES.length + k;
        const z = (this.sums[o] as number) + (this.dense[o] as number) * scale;
        if (z > top) {
          top = z;
          best = k;
        }
      }
      if (best < 0) return;
      const polarity = CLASSES[best] as ClausePolarity;
      out.push({ aspect, polarity, margin: polarity === "positive" ? top : polarity === "negative" ? -top : 0 });
    });
    return out;
  }
}
