import { ASPECT_IDS } from "../../schemas/analysis.ts";
import type { Clause } from "../analysis/clauses.ts";
import type { CompiledLexicon } from "../analysis/compile.ts";
import type { ClauseScore } from "../analysis/score-clause.ts";
import type { Tokens } from "../analysis/tokens.ts";
import type { WordVectors } from "./word-vectors.ts";

/** What the learned layer reads of one clause: named sparse features and a mean word vector. */
export interface ClauseFeatures {
  names: string[];
  /** Mean unit vector of the clause's content words that the vector subset has (zeros when none). */
  vector: Float32Array;
}

/** Words standing for amounts and times, so "$950" and "$300" are one feature whose sign context decides. */
function shape(lemma: string, value: string): string {
  if (/\d/.test(value)) return /:/.test(value) || /(am|pm)$/i.test(value) ? "#time" : "#num";
  return lemma;
}

function negated(tokens: Tokens, clause: Clause, i: number, lex: CompiledLexicon): boolean {
  const floor = Math.max(clause.first, i - lex.settings.negation_window);
  for (let j = i - 1; j >= floor; j--) {
    if (tokens.punct[j] === 1 || lex.scopeBreakers.has(tokens.normal[j] as string)) return false;
    if (lex.negators.has(tokens.normal[j] as string) || tokens.lemma[j] === "not") return true;
  }
  return false;
}

const sign = (x: number, threshold: number) => (x >= threshold ? "+" : x <= -threshold ? "-" : x !== 0 ? "~" : "");

/**
 * Features of one clause: its lemmas (marked inside a negation scope) and lemma pairs, the rule layer's
 * verdict per aspect (the exact rules: negation, the bill against the quote, the arrival time against the
 * window, idioms), the star rating, whether the clause follows a contrast, and its mean word vector.
 */
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
  for (let i = clause.first; i < clause.last; i++) {
    if (tokens.punct[i] === 1) {
      previous = "";
      continue;
    }
    const lemma = shape(tokens.lemma[i] as string, tokens.value[i] as string);
    const word = negated(tokens, clause, i, lex) ? `!${lemma}` : lemma;
    names.push(`w:${word}`);
    if (previous !== "") names.push(`b:${previous} ${lemma}`);
    previous = lemma;
    if (tokens.stop[i] || lemma.startsWith("#")) continue;
    const row = vectors.row(tokens.wordNormal[i] as string);
    if (row < 0) continue;
    const offset = row * dims;
    for (let d = 0; d < dims; d++) vector[d] = (vector[d] as number) + (vectors.data[offset + d] as number);
    counted++;
  }
  if (counted > 0) for (let d = 0; d < dims; d++) vector[d] = (vector[d] as number) / counted;
  const { threshold } = lex.settings;
  for (const a of score.aspects) {
    const s = sign(a.score, threshold);
    if (s !== "") names.push(`r:${a.aspect}${s}`);
  }
  const total = sign(score.total, threshold);
  if (total !== "") names.push(`r:total${total}`);
  if (score.sarcasmMarker) names.push("r:sarcasm");
  if (rating !== undefined) names.push(`star:${rating}`);
  if (clause.afterContrast) names.push("ctx:contrast");
  return { names, vector };
}

export const MODEL_ASPECTS = ASPECT_IDS;
