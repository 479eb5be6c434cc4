import type { Tokens } from "./tokens.ts";

/** One word of a compiled pattern; `alts` is null for the wildcards. */
interface PatternWord {
  kind: "lit" | "num" | "any" | "gap";
  alts: ReadonlySet<string> | null;
}

export interface Compiled<T> {
  words: PatternWord[];
  pattern: string;
  payload: T;
}

/** Patterns indexed by the forms of their first word, so a token looks up only its own candidates. */
export interface PatternIndex<T> {
  byFirst: Map<string, Compiled<T>[]>;
  wild: Compiled<T>[];
}

const NUMBER_WORDS = new Set(
  "a an one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty half couple few several".split(
    " ",
  ),
);
const GAP_MAX = 3;

function compileWord(word: string): PatternWord {
  if (word === "NUM") return { kind: "num", alts: null };
  if (word === "*") return { kind: "any", alts: null };
  if (word === "...") return { kind: "gap", alts: null };
  return { kind: "lit", alts: new Set(word.split("|")) };
}

export function compilePatterns<T>(entries: Iterable<[string, T]>): PatternIndex<T> {
  const byFirst = new Map<string, Compiled<T>[]>();
  const wild: Compiled<T>[] = [];
  for (const [pattern, payload] of entries) {
    const words = pattern.split(" ").map(compileWord);
    const compiled = { words, pattern, payload };
    const first = words[0];
    if (first?.alts) {
      for (const alt of first.alts) {
        const list = byFirst.get(alt);
        if (list) list.push(compiled);
        else byFirst.set(alt, [compiled]);
      }
    } else wild.push(compiled);
  }
  return { byFirst, wild };
}

function isNumber(form: string): boolean {
  const c = form.charCodeAt(0);
  return (c >= 48 && c <= 57) || NUMBER_WORDS.has(form);
}

function wordMatches(word: PatternWord, tokens: Tokens, i: number): boolean {
  if (tokens.punct[i] !== 0) return false;
  if (word.kind === "any") return true;
  if (word.kind === "num") return isNumber(tokens.normal[i] as string);
  const alts = word.alts as ReadonlySet<string>;
  return alts.has(tokens.normal[i] as string) || alts.has(tokens.lemma[i] as string);
}

/** End (exclusive) of the match of `words[w..]` from token `i`, or -1; `limit` bounds the clause. */
function matchFrom(words: PatternWord[], w: number, tokens: Tokens, i: number, limit: number): number {
  if (w === words.length) return i;
  // A hyphen inside a word ("no-show", "heads-up") is transparent to patterns.
  if (w > 0 && i < limit && tokens.punct[i] === 2) return matchFrom(words, w, tokens, i + 1, limit);
  const word = words[w] as PatternWord;
  if (word.kind === "gap") {
    for (let skip = 0; skip <= GAP_MAX && i + skip <= limit; skip++) {
      if (skip > 0 && tokens.punct[i + skip - 1] === 1) break;
      const end = matchFrom(words, w + 1, tokens, i + skip, limit);
      if (end >= 0) return end;
    }
    return -1;
  }
  if (i >= limit || !wordMatches(word, tokens, i)) return -1;
  return matchFrom(words, w + 1, tokens, i + 1, limit);
}

export interface Match<T> {
  start: number;
  end: number;
  pattern: string;
  payload: T;
}

/** Longest match starting at token `i` among the index's candidates, or null. */
export function longestAt<T>(index: PatternIndex<T>, tokens: Tokens, i: number, limit: number): Match<T> | null {
  let best: Compiled<T> | null = null;
  let bestEnd = i;
  const normal = tokens.normal[i] as string;
  const lemma = tokens.lemma[i] as string;
  // Three candidate lists without allocating: by form, by lemma, wildcards first.
  for (let pass = 0; pass < 3; pass++) {
    const list =
      pass === 0
        ? index.byFirst.get(normal)
        : pass === 1
          ? lemma !== normal
            ? index.byFirst.get(lemma)
            : undefined
          : index.wild;
    if (!list) continue;
    for (const c of list) {
      const end = matchFrom(c.words, 0, tokens, i, limit);
      if (end > bestEnd) {
        best = c;
        bestEnd = end;
      }
    }
  }
  return best === null ? null : { start: i, end: bestEnd, pattern: best.pattern, payload: best.payload };
}
