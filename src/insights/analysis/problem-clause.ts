import type { Clause } from "./clauses.ts";
import type { ClauseScore } from "./score-clause.ts";
import type { Tokens } from "./tokens.ts";

/** What went wrong in the customer's home: the problem the business was called for, not a judgement of it. */
const PROBLEM = new Set([
  "flood",
  "flooded",
  "clog",
  "clogged",
  "burst",
  "backed",
  "backing",
  "leak",
  "leaking",
  "overflow",
  "overflowing",
  "crack",
  "cracked",
  "rust",
  "rusted",
  "freeze",
  "froze",
  "frozen",
  "die",
  "died",
  "broke",
  "broken",
  "quit",
]);

/** Words that turn a problem into an outcome ("hasn't leaked since", "still drips", "clogged again"). */
const OUTCOME = new Set([
  "now",
  "since",
  "anymore",
  "longer",
  "still",
  "again",
  "fix",
  "fixed",
  "repair",
  "repaired",
  "solve",
  "solved",
  "resolve",
  "resolved",
  "restore",
  "restored",
  "work",
  "works",
  "working",
  "later",
  "after",
  "never",
]);

/**
 * The customer's own problem is never evidence (issue 13, point 4): a clause that names a problem state
 * ("our basement flooded and the drain was clogged") with no outcome word and nothing the rule layer reads
 * as a judgement makes no claim, whatever the learned layer makes of its words.
 */
export function describesOwnProblem(tokens: Tokens, clause: Clause, score: ClauseScore): boolean {
  if (score.total !== 0 || score.aspects.some((a) => a.score !== 0)) return false;
  let problem = false;
  for (let i = clause.first; i < clause.last; i++) {
    const word = tokens.normal[i] as string;
    if (OUTCOME.has(word) || OUTCOME.has(tokens.lemma[i] as string)) return false;
    if (PROBLEM.has(word)) problem = true;
  }
  return problem;
}

/** Words of a problem back or worse ("now it leaks twice as fast", "clogged again"). */
const WORSE = new Set([
  "again",
  "still",
  "twice",
  "worse",
  "leaks",
  "leaking",
  "broke",
  "broken",
  "clogged",
  "flooded",
]);

/** The clause says the problem is back or worse: what a sarcastic "wonderful" in a 1-star review is about. */
export function describesOutcome(tokens: Tokens, clause: Clause): boolean {
  for (let i = clause.first; i < clause.last; i++) if (WORSE.has(tokens.normal[i] as string)) return true;
  return false;
}
