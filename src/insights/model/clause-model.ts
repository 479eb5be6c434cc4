import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ASPECT_IDS } from "@riverbend/shared/schemas/analysis.ts";
import { z } from "zod";
import { loadWordVectors, type WordVectors } from "./word-vectors.ts";

export const WEIGHTS_FILE = "data/insights/model/weights.json";

/** The classes a clause can take for one aspect besides "does not judge it" (whose logit is fixed at 0). */
export const CLASSES = ["positive", "negative", "neutral"] as const;
export type ClauseClass = (typeof CLASSES)[number];
const K = CLASSES.length;

const AspectWeightsSchema = z.object({
  bias: z.array(z.number()).length(K),
  /** Feature-major: weight of class k for feature f at f * 3 + k. */
  sparse: z.array(z.number()),
  /** Dimension-major: weight of class k for dimension d at d * 3 + k. */
  dense: z.array(z.number()),
});

export const WeightsFileSchema = z.object({
  version: z.string(),
  trained: z.object({
    seed: z.int(),
    files: z.array(z.object({ file: z.string(), reviews: z.int() })),
    settings: z.record(z.string(), z.number()),
  }),
  vocabulary: z.array(z.string()),
  /** A clause judges an aspect when its likeliest class's logit exceeds this (the "none" logit is 0). */
  threshold: z.number(),
  aspects: z.record(z.enum(ASPECT_IDS), AspectWeightsSchema),
});
export type WeightsFile = z.infer<typeof WeightsFileSchema>;

const A = ASPECT_IDS.length;
/** Logits per clause: aspect-major, K classes each. */
export const OUTPUTS = A * K;

/**
 * The learned layer: per aspect a linear model over clause features, four classes with "none" at logit 0.
 * Weights are laid out feature-major over all aspects, and the word-vector weights are folded into one
 * projection per word (the mean of projections is the projection of the mean), so classifying a clause
 * touches one short row per feature and per word.
 */
export interface ClauseModel {
  version: string;
  /** sha256 over the weights and the word vectors. */
  hash: string;
  vectors: WordVectors;
  threshold: number;
  /**
   * Feature indexes by kind. A word costs one lookup by text, of its lemma's id; its feature, its feature
   * inside a negation scope and its pairs are then found by number (the insights step's throughput target).
   */
  lemmaIds: ReadonlyMap<string, number>;
  /** By lemma id, the feature index of the word and of the word inside a negation scope; -1: none. */
  wordFeature: Int32Array;
  negatedFeature: Int32Array;
  /** Pair features: see `pairFeature`. */
  pairs: PairIndex;
  others: ReadonlyMap<string, number>;
  features: number;
  bias: Float64Array;
  /** OUTPUTS weights per feature. */
  sparse: Float32Array;
  /** OUTPUTS projected word-vector weights per vector row. */
  projected: Float32Array;
}

/**
 * The pair features as one sorted array of keys (first id * lemmas + second id) beside their feature
 * indexes. Most pairs of a clause are not features; a binary search over this small array stays in the
 * processor's cache where a hash map of the same entries did not (the insights step's throughput target).
 */
export interface PairIndex {
  lemmas: number;
  /** Exact integers up to 2^53, so any vocabulary size fits. */
  keys: Float64Array;
  features: Int32Array;
}

/** The feature index of the pair (first, second) of lemma ids, or -1. */
export function pairFeature(pairs: PairIndex, first: number, second: number): number {
  const key = first * pairs.lemmas + second;
  let low = 0;
  let high = pairs.keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = pairs.keys[middle] as number;
    if (at < key) low = middle + 1;
    else if (at > key) high = middle - 1;
    else return pairs.features[middle] as number;
  }
  return -1;
}

function indexNames(vocabulary: readonly string[]) {
  const lemmaIds = new Map<string, number>();
  const idOf = (lemma: string) => {
    let id = lemmaIds.get(lemma);
    if (id === undefined) {
      id = lemmaIds.size;
      lemmaIds.set(lemma, id);
    }
    return id;
  };
  const words: [number, number][] = [];
  const negated: [number, number][] = [];
  const pairs: [number, number, number][] = [];
  const others = new Map<string, number>();
  vocabulary.forEach((name, i) => {
    if (name.startsWith("w:!")) negated.push([idOf(name.slice(3)), i]);
    else if (name.startsWith("w:")) words.push([idOf(name.slice(2)), i]);
    else if (name.startsWith("b:")) {
      const [first, second] = name.slice(2).split(" ") as [string, string];
      pairs.push([idOf(first), idOf(second), i]);
    } else others.set(name, i);
  });
  const wordFeature = new Int32Array(lemmaIds.size).fill(-1);
  const negatedFeature = new Int32Array(lemmaIds.size).fill(-1);
  for (const [id, i] of words) wordFeature[id] = i;
  for (const [id, i] of negated) negatedFeature[id] = i;
  const lemmas = lemmaIds.size;
  const sorted = pairs.map(([a, b, i]) => [a * lemmas + b, i] as const).sort((x, y) => x[0] - y[0]);
  const index: PairIndex = {
    lemmas,
    keys: Float64Array.from(sorted, ([key]) => key),
    features: Int32Array.from(sorted, ([, i]) => i),
  };
  return { lemmaIds, wordFeature, negatedFeature, pairs: index, others };
}

export function modelFromWeights(file: WeightsFile, vectors: WordVectors, hash: string): ClauseModel {
  const F = file.vocabulary.length;
  const D = vectors.dimensions;
  const bias = new Float64Array(OUTPUTS);
  const sparse = new Float32Array(F * OUTPUTS);
  const projected = new Float32Array((vectors.data.length / D) * OUTPUTS);
  ASPECT_IDS.forEach((aspect, a) => {
    const w = file.aspects[aspect];
    if (!w) throw new Error(`${WEIGHTS_FILE}: no weights for ${aspect}`);
    if (w.sparse.length !== F * K || w.dense.length !== D * K) {
      throw new Error(`${WEIGHTS_FILE}: ${aspect} weights do not fit the vocabulary and the vector size`);
    }
    for (let k = 0; k < K; k++) {
      bias[a * K + k] = w.bias[k] as number;
      for (let f = 0; f < F; f++) sparse[f * OUTPUTS + a * K + k] = w.sparse[f * K + k] as number;
      for (let row = 0; row * D < vectors.data.length; row++) {
        let sum = 0;
        for (let d = 0; d < D; d++) sum += (vectors.data[row * D + d] as number) * (w.dense[d * K + k] as number);
        projected[row * OUTPUTS + a * K + k] = sum;
      }
    }
  });
  return {
    version: file.version,
    hash,
    vectors,
    threshold: file.threshold,
    ...indexNames(file.vocabulary),
    features: F,
    bias,
    sparse,
    projected,
  };
}

let cached: ClauseModel | undefined;

/** The committed model (weights and word vectors), read once per process. */
export function loadModel(root = "."): ClauseModel {
  if (cached && root === ".") return cached;
  const raw = readFileSync(path.resolve(root, WEIGHTS_FILE));
  const vectors = loadWordVectors(root);
  const parsed = WeightsFileSchema.safeParse(JSON.parse(raw.toString("utf8")));
  if (!parsed.success) throw new Error(`${WEIGHTS_FILE}: ${parsed.error.issues[0]?.message}`);
  const hash = createHash("sha256");
  for (const b of [raw, ...vectors.bytes]) hash.update(b);
  const model = modelFromWeights(parsed.data, vectors, hash.digest("hex"));
  if (root === ".") cached = model;
  return model;
}
