import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ASPECT_IDS, type AspectId } from "../../schemas/analysis.ts";
import type { ClauseFeatures } from "./features.ts";
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

interface AspectWeights {
  bias: Float64Array;
  sparse: Float32Array;
  dense: Float32Array;
}

/** The learned layer: per aspect a linear model over clause features, 4 classes with "none" at logit 0. */
export interface ClauseModel {
  version: string;
  /** sha256 over the weights and the word vectors. */
  hash: string;
  vectors: WordVectors;
  vocabulary: ReadonlyMap<string, number>;
  threshold: number;
  aspects: ReadonlyMap<AspectId, AspectWeights>;
}

export function modelFromWeights(file: WeightsFile, vectors: WordVectors, hash: string): ClauseModel {
  const aspects = new Map<AspectId, AspectWeights>();
  for (const aspect of ASPECT_IDS) {
    const w = file.aspects[aspect];
    if (!w) throw new Error(`${WEIGHTS_FILE}: no weights for ${aspect}`);
    if (w.sparse.length !== file.vocabulary.length * K || w.dense.length !== vectors.dimensions * K) {
      throw new Error(`${WEIGHTS_FILE}: ${aspect} weights do not fit the vocabulary and the vector size`);
    }
    aspects.set(aspect, {
      bias: Float64Array.from(w.bias),
      sparse: Float32Array.from(w.sparse),
      dense: Float32Array.from(w.dense),
    });
  }
  return {
    version: file.version,
    hash,
    vectors,
    vocabulary: new Map(file.vocabulary.map((name, i) => [name, i])),
    threshold: file.threshold,
    aspects,
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

/** Feature indexes of a clause in the model's vocabulary, each once. */
export function featureIndexes(model: ClauseModel, features: ClauseFeatures): number[] {
  const out: number[] = [];
  for (const name of features.names) {
    const i = model.vocabulary.get(name);
    if (i !== undefined && !out.includes(i)) out.push(i);
  }
  return out;
}

/** The three class logits of one clause for one aspect ("none" is 0). */
export function logits(w: AspectWeights, indexes: readonly number[], vector: Float32Array, out: Float64Array): void {
  out[0] = w.bias[0] as number;
  out[1] = w.bias[1] as number;
  out[2] = w.bias[2] as number;
  for (const f of indexes) {
    const o = f * K;
    out[0] += w.sparse[o] as number;
    out[1] += w.sparse[o + 1] as number;
    out[2] += w.sparse[o + 2] as number;
  }
  for (let d = 0; d < vector.length; d++) {
    const x = vector[d] as number;
    if (x === 0) continue;
    const o = d * K;
    out[0] += x * (w.dense[o] as number);
    out[1] += x * (w.dense[o + 1] as number);
    out[2] += x * (w.dense[o + 2] as number);
  }
}
