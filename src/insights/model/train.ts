import { ASPECT_IDS, type AspectId, type AspectPolarity } from "@riverbend/shared/schemas/analysis.ts";

/** One clause as the trainer sees it: feature indexes and the mean word vector. */
export interface TrainClause {
  indexes: readonly number[];
  vector: Float32Array;
}

/** One labelled review: its clauses and the review-level label per aspect (absent: not judged). */
export interface TrainReview {
  clauses: readonly TrainClause[];
  labels: Partial<Record<AspectId, AspectPolarity>>;
}

export interface TrainSettings {
  epochs: number;
  learning_rate: number;
  /** L2 penalty on the weights of words and word pairs (w:, b:), which memorise most easily. */
  l2: number;
  /** L2 penalty on the rule-layer, rating and context features (r:, star:, ctx:). */
  l2_rules: number;
  /** L2 penalty on the word-vector weights. */
  l2_vector: number;
  /** Weight of "this clause does not judge the aspect" for the clauses of reviews without the aspect. */
  absent_weight: number;
  /** Weight of "no other clause judges it the opposite way" in reviews labelled positive or negative. */
  opposite_weight: number;
  /** Weight of "the likeliest clause judges it so" in reviews labelled with the aspect. */
  present_weight: number;
}

export interface TrainedAspect {
  bias: number[];
  sparse: number[];
  dense: number[];
}

const K = 3;
const POS = 0;
const NEG = 1;
const NEU = 2;
const CLASS_OF: Record<string, number> = { positive: POS, negative: NEG, neutral: NEU };

/** Class probabilities [p, n, u] and P(none) of logits z, none at 0. */
function softmax(z: Float64Array, p: Float64Array): number {
  const m = Math.max(0, z[0] as number, z[1] as number, z[2] as number);
  const e0 = Math.exp(-m);
  const e = [Math.exp((z[0] as number) - m), Math.exp((z[1] as number) - m), Math.exp((z[2] as number) - m)];
  const sum = e0 + (e[0] as number) + (e[1] as number) + (e[2] as number);
  for (let k = 0; k < K; k++) p[k] = (e[k] as number) / sum;
  return e0 / sum;
}

class Params {
  readonly w: Float64Array;
  readonly g: Float64Array;
  private readonly m: Float64Array;
  private readonly v: Float64Array;
  private step = 0;
  readonly features: number;
  readonly dims: number;
  constructor(features: number, dims: number) {
    this.features = features;
    this.dims = dims;
    const n = K + features * K + dims * K;
    this.w = new Float64Array(n);
    this.g = new Float64Array(n);
    this.m = new Float64Array(n);
    this.v = new Float64Array(n);
  }
  get sparseAt(): number {
    return K;
  }
  get denseAt(): number {
    return K + this.features * K;
  }
  logits(c: TrainClause, out: Float64Array) {
    const { w } = this;
    for (let k = 0; k < K; k++) out[k] = w[k] as number;
    for (const f of c.indexes) for (let k = 0; k < K; k++) out[k] = (out[k] as number) + (w[K + f * K + k] as number);
    const at = this.denseAt;
    for (let d = 0; d < this.dims; d++) {
      const x = c.vector[d] as number;
      if (x !== 0) for (let k = 0; k < K; k++) out[k] = (out[k] as number) + x * (w[at + d * K + k] as number);
    }
  }
  accumulate(c: TrainClause, grad: Float64Array, scale: number) {
    const { g } = this;
    for (let k = 0; k < K; k++) g[k] = (g[k] as number) + scale * (grad[k] as number);
    for (const f of c.indexes)
      for (let k = 0; k < K; k++) g[K + f * K + k] = (g[K + f * K + k] as number) + scale * (grad[k] as number);
    const at = this.denseAt;
    for (let d = 0; d < this.dims; d++) {
      const x = c.vector[d] as number;
      if (x !== 0)
        for (let k = 0; k < K; k++) g[at + d * K + k] = (g[at + d * K + k] as number) + scale * x * (grad[k] as number);
    }
  }
  /** One Adam step with an L2 penalty per weight (none on the biases), then clears the gradient. */
  update(rate: number, l2: Float64Array) {
    this.step++;
    const b1 = 0.9;
    const b2 = 0.999;
    const c1 = 1 - b1 ** this.step;
    const c2 = 1 - b2 ** this.step;
    for (let i = 0; i < this.w.length; i++) {
      const grad = (this.g[i] as number) + (l2[i] as number) * (this.w[i] as number);
      this.m[i] = b1 * (this.m[i] as number) + (1 - b1) * grad;
      this.v[i] = b2 * (this.v[i] as number) + (1 - b2) * grad * grad;
      this.w[i] =
        (this.w[i] as number) - (rate * ((this.m[i] as number) / c1)) / (Math.sqrt((this.v[i] as number) / c2) + 1e-8);
      this.g[i] = 0;
    }
  }
}

/** Gradient of -log P_k over the three logits. */
function towards(p: Float64Array, k: number, grad: Float64Array) {
  for (let j = 0; j < K; j++) grad[j] = (p[j] as number) - (j === k ? 1 : 0);
}

/** Gradient of -log(1 - P_o): pushes class o down in a clause. */
function awayFrom(p: Float64Array, o: number, grad: Float64Array) {
  const q = Math.min(p[o] as number, 1 - 1e-9);
  for (let j = 0; j < K; j++) grad[j] = (q * ((j === o ? 1 : 0) - (p[j] as number))) / (1 - q);
}

/**
 * Multiple-instance training of one aspect from review-level labels: in a review without the aspect no
 * clause judges it; in a review labelled with polarity k the clause most likely to be k is k (max pooling)
 * and no clause is the opposite; a mixed review has a positive and a negative clause. Full-batch Adam,
 * no randomness: the same data give the same weights.
 */
export function trainAspect(
  reviews: readonly TrainReview[],
  aspect: AspectId,
  vocabulary: readonly string[],
  dims: number,
  s: TrainSettings,
): TrainedAspect {
  const features = vocabulary.length;
  const params = new Params(features, dims);
  const l2 = new Float64Array(params.w.length);
  vocabulary.forEach((name, f) => {
    const penalty = name.startsWith("w:") || name.startsWith("b:") ? s.l2 : s.l2_rules;
    for (let k = 0; k < K; k++) l2[K + f * K + k] = penalty;
  });
  l2.fill(s.l2_vector, params.denseAt);
  const z = new Float64Array(K);
  const grad = new Float64Array(K);
  const scale = 1 / reviews.length;
  const probs = reviews.map((r) => r.clauses.map(() => new Float64Array(K)));
  for (let epoch = 0; epoch < s.epochs; epoch++) {
    reviews.forEach((review, r) => {
      const label = review.labels[aspect];
      const ps = probs[r] as Float64Array[];
      review.clauses.forEach((c, i) => {
        params.logits(c, z);
        softmax(z, ps[i] as Float64Array);
      });
      if (label === undefined) {
        review.clauses.forEach((c, i) => {
          const pc = ps[i] as Float64Array;
          for (let j = 0; j < K; j++) grad[j] = pc[j] as number;
          params.accumulate(c, grad, scale * s.absent_weight);
        });
        return;
      }
      const wanted = label === "mixed" ? [POS, NEG] : [CLASS_OF[label] as number];
      const witnesses = new Set<number>();
      for (const k of wanted) {
        let best = -1;
        review.clauses.forEach((_, i) => {
          if (witnesses.has(i) && review.clauses.length > 1) return;
          if (best < 0 || ((ps[i] as Float64Array)[k] as number) > ((ps[best] as Float64Array)[k] as number)) best = i;
        });
        if (best < 0) continue;
        witnesses.add(best);
        towards(ps[best] as Float64Array, k, grad);
        params.accumulate(review.clauses[best] as TrainClause, grad, scale * s.present_weight);
      }
      if (label === "mixed") return;
      const avoid = label === "positive" ? [NEG] : label === "negative" ? [POS] : [POS, NEG];
      review.clauses.forEach((c, i) => {
        if (witnesses.has(i)) return;
        for (const o of avoid) {
          awayFrom(ps[i] as Float64Array, o, grad);
          params.accumulate(c, grad, scale * s.opposite_weight);
        }
      });
    });
    params.update(s.learning_rate, l2);
  }
  const round = (x: number) => Math.round(x * 1e4) / 1e4 || 0;
  const w = Array.from(params.w, round);
  return { bias: w.slice(0, K), sparse: w.slice(K, params.denseAt), dense: w.slice(params.denseAt) };
}

export function trainAll(
  reviews: readonly TrainReview[],
  vocabulary: readonly string[],
  dims: number,
  s: TrainSettings,
): Record<AspectId, TrainedAspect> {
  return Object.fromEntries(ASPECT_IDS.map((a) => [a, trainAspect(reviews, a, vocabulary, dims, s)])) as Record<
    AspectId,
    TrainedAspect
  >;
}
