import type { Clause } from "./clauses.ts";
import type { CompiledLexicon, Term } from "./compile.ts";
import { longestAt } from "./matcher.ts";
import type { Tokens } from "./tokens.ts";

/** A lexicon hit inside a clause, with the comma-separated segment it sits in. */
export interface Hit {
  start: number;
  end: number;
  pattern: string;
  term: Term;
  segment: number;
}

const SEGMENT_BREAKS = new Set([",", ":", "(", ")", "-", "–", "—", "/"]);

/** The segment of a clause that the character at `offset` lies in, counted as `findHits` counts them. */
export function segmentAt(tokens: Tokens, clause: Clause, offset: number): number {
  let segment = 0;
  for (let i = clause.first; i < clause.last && (tokens.start[i] as number) < offset; i++) {
    if (tokens.punct[i] === 1 && SEGMENT_BREAKS.has(tokens.normal[i] as string)) segment++;
  }
  return segment;
}

/**
 * Lexicon hits of a clause, left to right, longest match first and never overlapping, so "no hidden
 * fees" is one cue rather than a negator plus "hidden fees". Sarcasm markers are looked for only when asked
 * (1- and 2-star reviews).
 */
export function findHits(
  tokens: Tokens,
  clause: Clause,
  lex: CompiledLexicon,
  withSarcasm: boolean,
): { hits: Hit[]; sarcasm: boolean } {
  const hits: Hit[] = [];
  let segment = 0;
  let sarcasm = false;
  let i = clause.first;
  while (i < clause.last) {
    if (tokens.punct[i] === 1) {
      if (SEGMENT_BREAKS.has(tokens.normal[i] as string)) segment++;
      i++;
      continue;
    }
    if (withSarcasm && !sarcasm && longestAt(lex.sarcasm, tokens, i, clause.last)) sarcasm = true;
    const m = longestAt(lex.terms, tokens, i, clause.last);
    if (m) {
      hits.push({ start: m.start, end: m.end, pattern: m.pattern, term: m.payload, segment });
      i = m.end;
    } else i++;
  }
  return { hits, sarcasm };
}
