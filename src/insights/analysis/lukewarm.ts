import type { Clause } from "./clauses.ts";
import type { Tokens } from "./tokens.ts";

/** The cue of a clause made neutral by the lukewarm rule: the one kind of neutral clause that is quoted. */
export const LUKEWARM_CUE = "lukewarm";

/** Words that are lukewarm by themselves: "the work was okay". */
const LUKEWARM = new Set(["okay", "ok", "alright", "so-so", "average", "passable", "adequate", "acceptable", "meh"]);
/** Words that are lukewarm when damped: "fine, nothing special", "decent, I guess". */
const MILD = new Set(["fine", "decent", "reasonable", "ok"]);
const DAMPERS = [
  /\bi (?:suppose|guess)\b/,
  /\bnothing special\b/,
  /\bnothing to write home about\b/,
  /\bi think\b/,
  /\bnot bad\b/,
];
/** A strong word or an outcome keeps the clause polar: "perfectly fine", "okay now". */
const STRONG = new Set([
  "great",
  "excellent",
  "amazing",
  "perfect",
  "perfectly",
  "awesome",
  "terrible",
  "awful",
  "horrible",
  "worst",
  "best",
  "now",
  "again",
  "still",
]);

/**
 * A lukewarm judgement ("it's okay, I suppose", "install was fine, nothing special") is neutral, never
 * positive: the clause holds a lukewarm word, or a mild one with a damper, and no strong word.
 */
export function isLukewarm(text: string, tokens: Tokens, clause: Clause): boolean {
  let lukewarm = false;
  let mild = false;
  for (let i = clause.first; i < clause.last; i++) {
    const word = tokens.normal[i] as string;
    if (STRONG.has(word)) return false;
    if (LUKEWARM.has(word)) lukewarm = true;
    if (MILD.has(word)) mild = true;
  }
  if (lukewarm) return true;
  if (!mild) return false;
  const lower = text.slice(clause.start, clause.end).toLowerCase();
  return DAMPERS.some((d) => d.test(lower));
}
