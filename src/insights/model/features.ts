import type { Clause } from "../analysis/clauses.ts";
import type { CompiledLexicon } from "../analysis/compile.ts";
import { capitalised } from "../analysis/name-parts.ts";
import type { ClauseScore } from "../analysis/score-clause.ts";
import type { Tokens } from "../analysis/tokens.ts";
import type { WordVectors } from "./word-vectors.ts";

/**
 * Receives the features of one clause as they are read. Training collects them as names
 * (`w:late`, `w:!late` inside a negation scope, `b:show up`, `r:price-`, `star:2`, `ctx:contrast`) and
 * the word vectors; inference looks the same features up in the model without building strings.
 */
export interface FeatureSink {
  /**
   * The clause's next word (its lemma or shape), marked inside a negation scope; `joined`: no punctuation
   * since the word before, so the two also count as a pair.
   */
  word(lemma: string, negated: boolean, joined: boolean): void;
  other(name: string): void;
  /** A content word the vector subset has, by row. */
  vector(row: number): void;
}

/** Words standing for amounts and times, so "$950" and "$300" are one feature whose context decides. */
function shape(lemma: string, value: string): string {
  if (!/\d/.test(value)) return lemma;
  return value.includes(":") || /(am|pm)$/i.test(value) ? "#time" : "#num";
}

/** A capitalised word inside a sentence (not "I", not shouted in capitals): part of a name. */
function isName(tokens: Tokens, i: number): boolean {
  if (!capitalised(tokens.value[i] as string)) return false;
  if (i > 0 && tokens.punct[i - 1] === 1 && /^[.!?"“(]$/.test(tokens.value[i - 1] as string)) return false;
  return !tokens.sentences.some((s) => s[0] === i);
}

/**
 * A word is inside a negation scope when a negator stands at most `negation_window` words before it in the
 * clause with no punctuation or scope breaker between. The returned step is called for each token of the
 * clause in order: whether that token is inside a scope, reading the clause once rather than once per word.
 */
function negationScope(tokens: Tokens, lex: CompiledLexicon): (i: number) => boolean {
  // The last negator with no break after it; -1: none.
  let negator = -1;
  return (i) => {
    const inside = negator >= 0 && negator >= i - lex.settings.negation_window;
    const normal = tokens.normal[i] as string;
    if (tokens.punct[i] === 1 || lex.scopeBreakers.has(normal)) negator = -1;
    else if (lex.negators.has(normal) || tokens.lemma[i] === "not") negator = i;
    return inside;
  };
}

const SIGN = ["-", "~", "+"] as const;
const sign = (x: number, threshold: number) => SIGN[x >= threshold ? 2 : x <= -threshold ? 0 : 1];

/** One name per (aspect, sign) and total, built once rather than per clause. */
const RULE_NAMES = new Map<string, string>();
function ruleName(aspect: string, s: string): string {
  const key = aspect + s;
  let name = RULE_NAMES.get(key);
  if (name === undefined) {
    name = `r:${key}`;
    RULE_NAMES.set(key, name);
  }
  return name;
}
const STAR_NAMES = ["star:1", "star:2", "star:3", "star:4", "star:5"];

/**
 * Reads the features of one clause into `sink`: its lemmas (marked inside a negation scope) and lemma
 * pairs, its content words' vectors, the rule layer's verdict per aspect (the exact rules: negation, the
 * bill against the quote, the arrival time against the window, idioms), the star rating, and whether the
 * clause follows a contrast.
 */
export function readFeatures(
  tokens: Tokens,
  clause: Clause,
  score: ClauseScore,
  rating: number | undefined,
  lex: CompiledLexicon,
  vectors: WordVectors,
  sink: FeatureSink,
): void {
  let joined = false;
  const negatedAt = negationScope(tokens, lex);
  for (let i = clause.first; i < clause.last; i++) {
    const negated = negatedAt(i);
    if (tokens.punct[i] === 1) {
      joined = false;
      continue;
    }
    // A name is no judgement, whatever words it is made of ("Pleasant Grove Blvd", "Goodman").
    const lemma = isName(tokens, i) ? "#name" : shape(tokens.lemma[i] as string, tokens.value[i] as string);
    sink.word(lemma, negated, joined);
    joined = true;
    if (tokens.stop[i] || lemma.charCodeAt(0) === 35) continue;
    const row = vectors.row(tokens.wordNormal[i] as string);
    if (row >= 0) sink.vector(row);
  }
  const { threshold } = lex.settings;
  for (const a of score.aspects) if (a.score !== 0) sink.other(ruleName(a.aspect, sign(a.score, threshold)));
  if (score.total !== 0) sink.other(ruleName("total", sign(score.total, threshold)));
  if (score.sarcasmMarker) sink.other("r:sarcasm");
  if (rating !== undefined) sink.other(STAR_NAMES[rating - 1] as string);
  if (clause.afterContrast) sink.other("ctx:contrast");
}

/** What training reads of one clause: feature names and the mean vector of its content words. */
export interface ClauseFeatures {
  names: string[];
  vector: Float32Array;
}

export function clauseFeatures(
  tokens: Tokens,
  clause: Clause,
  score: ClauseScore,
  rating: number | undefined,
  lex: CompiledLexicon,
  vectors: WordVectors,
): ClauseFeatures {
  const names: string[] = [];
  const dims = vectors.dimensions;
  const vector = new Float32Array(dims);
  let counted = 0;
  let previous = "";
  readFeatures(tokens, clause, score, rating, lex, vectors, {
    word: (lemma, neg, joined) => {
      names.push(neg ? `w:!${lemma}` : `w:${lemma}`);
      if (joined) names.push(`b:${previous} ${lemma}`);
      previous = lemma;
    },
    other: (name) => names.push(name),
    vector: (row) => {
      const offset = row * dims;
      for (let d = 0; d < dims; d++) vector[d] = (vector[d] as number) + (vectors.data[offset + d] as number);
      counted++;
    },
  });
  if (counted > 0) for (let d = 0; d < dims; d++) vector[d] = (vector[d] as number) / counted;
  return { names, vector };
}
