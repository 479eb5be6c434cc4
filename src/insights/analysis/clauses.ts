import type { Tokens } from "./tokens.ts";

/** A clause as a token range [first, last) with the character span of its quote. */
export interface Clause {
  first: number;
  last: number;
  start: number;
  end: number;
  sentence: number;
  /** The clause follows a contrast marker of its own sentence ("… but <this>"). */
  afterContrast: boolean;
}

const KEEP_AT_END = new Set([".", "!", "?", "…", ")", '"', "”"]);

function isDroppable(tokens: Tokens, i: number, atEnd: boolean): boolean {
  if (tokens.punct[i] !== 1) return false;
  return !(atEnd && KEEP_AT_END.has(tokens.normal[i] as string));
}

function push(out: Clause[], tokens: Tokens, from: number, to: number, sentence: number, afterContrast: boolean) {
  let first = from;
  let last = to;
  while (first < last && isDroppable(tokens, first, false)) first++;
  while (last > first && isDroppable(tokens, last - 1, true)) last--;
  // A clause of punctuation only ("!!!") carries nothing to quote.
  let words = 0;
  for (let i = first; i < last; i++) if (tokens.punct[i] === 0) words++;
  if (words === 0) return;
  out.push({
    first,
    last,
    start: tokens.start[first] as number,
    end: tokens.end[last - 1] as number,
    sentence,
    afterContrast,
  });
}

/** Sentences split at contrast markers and semicolons; the marker itself belongs to no clause. */
export function splitClauses(tokens: Tokens, contrast: ReadonlySet<string>): Clause[] {
  const out: Clause[] = [];
  tokens.sentences.forEach((span, sentence) => {
    const stop = (span[1] as number) + 1;
    let from = span[0] as number;
    let afterContrast = false;
    for (let i = from; i < stop; i++) {
      const form = tokens.normal[i] as string;
      const isMarker = contrast.has(form);
      if (isMarker || form === ";") {
        push(out, tokens, from, i, sentence, afterContrast);
        from = i + 1;
        afterContrast = isMarker;
      }
    }
    push(out, tokens, from, stop, sentence, afterContrast);
  });
  return out;
}
