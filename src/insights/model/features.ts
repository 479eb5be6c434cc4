import type { Clause } from "../analysis/clauses.ts";
import type { CompiledLexicon } from "../analysis/compile.ts";
import type { ClauseScore } from "../analysis/score-clause.ts";
import type { Tokens } from "../analysis/tokens.ts";
import type { WordVectors } from "./word-vectors.ts";

/**
 * Receives the features of one clause as they are read. Training collects them as names
 * (`w:late`, `w:!late` inside a negation scope, `b:show up`, `r:price-`, `star:2`, `ctx:contrast`) and
 * the word vectors; inference looks the same features up in the model without building strings.
 */
export interface FeatureSink {
  word(lemma: string, negated: boolean): void;
  pair(first: string, second: string): void;
  other(name: string): void;
  /** A content word the vector subset has, by row. */
  vector(row: number): void;
  /** A content word of a neighbouring clause, by row: the context the clause is read in. */
  context(row: number): void;
}

/**
 * A review as the feature reader sees it: its clauses, the rule layer's score of each, and per token the
 * feature lemma and the vector row (-1: punctuation, a stop word, a name, an amount, or a word without a
 * vector), read once per review because a clause's neighbours read them again.
 */
export interface ReviewContext {
  tokens: Tokens;
  clauses: readonly Clause[];
  scores: readonly ClauseScore[];
  lemmas: readonly string[];
  rows: Int32Array;
  rating: number | undefined;
}

/** Words standing for amounts and times, so "$950" and "$300" are one feature whose context decides. */
function shape(lemma: string, value: string): string {
  if (!/\d/.test(value)) return lemma;
  return value.includes(":") || /(am|pm)$/i.test(value) ? "#time" : "#num";
}

/** A capitalised word inside a sentence (not "I", not shouted in capitals): part of a name. */
function isName(tokens: Tokens, i: number): boolean {
  const value = tokens.value[i] as string;
  const first = value.charCodeAt(0);
  if (first < 65 || first > 90 || value.length < 2 || value === value.toUpperCase()) return false;
  if (i > 0 && tokens.punct[i - 1] === 1 && /^[.!?"“(]$/.test(tokens.value[i - 1] as string)) return false;
  return !tokens.sentences.some((s) => s[0] === i);
}

function negated(tokens: Tokens, clause: Clause, i: number, lex: CompiledLexicon): boolean {
  const floor = Math.max(clause.first, i - lex.settings.negation_window);
  for (let j = i - 1; j >= floor; j--) {
    if (tokens.punct[j] === 1 || lex.scopeBreakers.has(tokens.normal[j] as string)) return false;
    if (lex.negators.has(tokens.normal[j] as string) || tokens.lemma[j] === "not") return true;
  }
  return false;
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
/** The star rating against the clause's tone: the rating as a prior for the polarity of what it says. */
const TONE_NAMES = STAR_NAMES.flatMap((star) => SIGN.map((s) => `${star}${s}`));

/** The feature lemma and the vector row of every token (see ReviewContext). */
export function readTokens(tokens: Tokens, vectors: WordVectors): { lemmas: string[]; rows: Int32Array } {
  const n = tokens.value.length;
  const lemmas = new Array<string>(n);
  const rows = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    if (tokens.punct[i] === 1) {
      lemmas[i] = "";
      continue;
    }
    // A name is no judgement, whatever words it is made of ("Pleasant Grove Blvd", "Goodman").
    const lemma = isName(tokens, i) ? "#name" : shape(tokens.lemma[i] as string, tokens.value[i] as string);
    lemmas[i] = lemma;
    if (!tokens.stop[i] && lemma.charCodeAt(0) !== 35) rows[i] = vectors.row(tokens.wordNormal[i] as string);
  }
  return { lemmas, rows };
}

/** The rule layer's verdicts of a neighbouring clause, under a prefix of its side ("p:" before, "n:" after). */
function neighbourRules(score: ClauseScore | undefined, prefix: string, threshold: number, sink: FeatureSink) {
  if (!score) return;
  for (const a of score.aspects) if (a.score !== 0) sink.other(prefix + ruleName(a.aspect, sign(a.score, threshold)));
}

function neighbourVectors(review: ReviewContext, clause: Clause | undefined, sink: FeatureSink) {
  if (!clause) return;
  for (let i = clause.first; i < clause.last; i++) {
    const row = review.rows[i] as number;
    if (row >= 0) sink.context(row);
  }
}

/**
 * Reads the features of clause `at` into `sink`: its lemmas (marked inside a negation scope) and lemma
 * pairs, its content words' vectors, the rule layer's verdict per aspect (the exact rules: negation, the
 * bill against the quote, the arrival time against the window, idioms), the star rating alone and against
 * the clause's tone, whether the clause follows a contrast; and its context: the rule verdicts and the
 * words' vectors of the clauses before and after it (an implicit judgement often leans on its neighbour:
 * "Paid $450. Half what the other guy wanted.").
 */
export function readFeatures(review: ReviewContext, at: number, lex: CompiledLexicon, sink: FeatureSink): void {
  const { tokens, rating } = review;
  const clause = review.clauses[at] as Clause;
  const score = review.scores[at] as ClauseScore;
  let previous = "";
  for (let i = clause.first; i < clause.last; i++) {
    if (tokens.punct[i] === 1) {
      previous = "";
      continue;
    }
    const lemma = review.lemmas[i] as string;
    sink.word(lemma, negated(tokens, clause, i, lex));
    if (previous !== "") sink.pair(previous, lemma);
    previous = lemma;
    const row = review.rows[i] as number;
    if (row >= 0) sink.vector(row);
  }
  const { threshold } = lex.settings;
  for (const a of score.aspects) if (a.score !== 0) sink.other(ruleName(a.aspect, sign(a.score, threshold)));
  const tone = sign(score.total, threshold);
  if (score.total !== 0) sink.other(ruleName("total", tone));
  if (score.sarcasmMarker) sink.other("r:sarcasm");
  if (rating !== undefined) {
    sink.other(STAR_NAMES[rating - 1] as string);
    sink.other(TONE_NAMES[(rating - 1) * 3 + SIGN.indexOf(tone)] as string);
  }
  if (clause.afterContrast) sink.other("ctx:contrast");
  neighbourRules(review.scores[at - 1], "p:", threshold, sink);
  neighbourRules(review.scores[at + 1], "n:", threshold, sink);
  neighbourVectors(review, review.clauses[at - 1], sink);
  neighbourVectors(review, review.clauses[at + 1], sink);
}

/** What training reads of one clause: feature names, the mean vector of its content words and of its neighbours'. */
export interface ClauseFeatures {
  names: string[];
  vector: Float32Array;
  context: Float32Array;
}

function meanOf(vectors: WordVectors) {
  const dims = vectors.dimensions;
  const sum = new Float32Array(dims);
  let counted = 0;
  return {
    add(row: number) {
      const offset = row * dims;
      for (let d = 0; d < dims; d++) sum[d] = (sum[d] as number) + (vectors.data[offset + d] as number);
      counted++;
    },
    mean(): Float32Array {
      if (counted > 0) for (let d = 0; d < dims; d++) sum[d] = (sum[d] as number) / counted;
      return sum;
    },
  };
}

export function clauseFeatures(
  review: ReviewContext,
  at: number,
  lex: CompiledLexicon,
  vectors: WordVectors,
): ClauseFeatures {
  const names: string[] = [];
  const vector = meanOf(vectors);
  const context = meanOf(vectors);
  readFeatures(review, at, lex, {
    word: (lemma, neg) => names.push(neg ? `w:!${lemma}` : `w:${lemma}`),
    pair: (a, b) => names.push(`b:${a} ${b}`),
    other: (name) => names.push(name),
    vector: (row) => vector.add(row),
    context: (row) => context.add(row),
  });
  return { names, vector: vector.mean(), context: context.mean() };
}
