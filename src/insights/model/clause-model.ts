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
  /** Feature indexes by kind: words, words inside a negation scope, word pairs, the rest by name. */
  words: ReadonlyMap<string, number>;
  negatedWords: ReadonlyMap<string, number>;
  pairs: ReadonlyMap<string, ReadonlyMap<string, number>>;
  others: ReadonlyMap<string, number>;
  features: number;
  bias: Float64Array;
  /** OUTPUTS weights per feature. */
  sparse: Float32Array;
  /** OUTPUTS projected word-vector weights per vector row. */
  projected: Float32Array;
}

function indexNames(vocabulary: readonly string[]) {
  const words = new Map<string, number>();
  const negatedWords = new Map<string, number>();
  const pairs = new Map<string, Map<string, number>>();
  const others = new Map<string, number>();
  vocabulary.forEach((name, i) => {
    if (name.startsWith("w:!")) negatedWords.set(name.slice(3), i);
    else if (name.startsWith("w:")) words.set(name.slice(2), i);
    else if (name.startsWith("b:")) {
      const [first, second] = name.slice(2).split(" ") as [string, string];
      const inner = pairs.get(first) ?? new Map<string, number>();
      pairs.set(first, inner);
      inner.set(second, i);
    } else others.set(name, i);
  });
  return { words, negatedWords, pairs, others };
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
