import type { AspectId, ClausePolarity } from "@riverbend/shared/schemas/analysis.ts";
import type { Clause } from "./clauses.ts";
import type { ClauseScore } from "./score-clause.ts";
import type { Tokens } from "./tokens.ts";

/** What the gates read of a review: its tokens, its clauses and the rule layer's score of each. */
export interface ReviewContext {
  tokens: Tokens;
  clauses: readonly Clause[];
  scores: readonly ClauseScore[];
}

/**
 * Why a clause the analyser counts may still not be published as a quote (issue 13, point 4: a quote says
 * what it is published for, about this business). Counting is left alone: these are classes of clauses
 * that do not say it plainly, each decided from the clause's words and its neighbours.
 */
export type QuoteGate = "other-party" | "bare-amount" | "job-object" | "no-cue";

/** The cue a gated reading carries, so that the quote selection skips it (cues are not published). */
export const GATED_CUE_PREFIX = "unquoted:";

const THIRD_PERSON = new Set(["he", "she", "they", "his", "her", "their", "them", "him"]);

/** The clause is told of a third person (its subject within its first three words is "he", "they", ...). */
function startsWithPronoun(tokens: Tokens, clause: Clause): boolean {
  let words = 0;
  for (let i = clause.first; i < clause.last && words < 3; i++) {
    if (tokens.punct[i] === 1) continue;
    words++;
    const word = tokens.normal[i] as string;
    if (THIRD_PERSON.has(word)) return true;
    if (tokens.normal[i] === "<name>" || tokens.value[i] === "I" || word === "we") return false;
  }
  return false;
}

/**
 * Another business's or person's earlier work is never evidence: the clause names one, or continues what
 * a clause naming one began, by a pronoun ("The handyman tried first. He recaulked it, it held a week").
 */
export function aboutOtherParty(review: ReviewContext, at: number): boolean {
  for (let j = at; j > 0; j--) {
    if (!startsWithPronoun(review.tokens, review.clauses[j] as Clause)) return false;
    if ((review.scores[j - 1] as ClauseScore).otherParty) return true;
  }
  return false;
}

/** The rule layer reads a judgement of the aspect itself in the clause (an opinion word, an exact rule, an idiom). */
function judges(score: ClauseScore, aspect: AspectId): boolean {
  return score.aspects.some((a) => a.aspect === aspect && a.score !== 0);
}

/** What "cleaning" means in a review about cleanliness: the home and the mess, not the part worked on. */
const CLEANED_PLACES = new Set([
  "up",
  "after",
  "everything",
  "all",
  "mess",
  "area",
  "floor",
  "floors",
  "room",
  "bathroom",
  "kitchen",
  "garage",
  "basement",
  "house",
  "home",
  "space",
  "site",
  "workspace",
  "yard",
  "carpet",
  "driveway",
  "dust",
  "debris",
  "mud",
  "itself",
  "themselves",
  "himself",
  "herself",
]);
const DETERMINERS = new Set([
  "the",
  "a",
  "an",
  "our",
  "my",
  "their",
  "his",
  "her",
  "out",
  "off",
  "that",
  "this",
  "both",
]);

/**
 * The clause's only cleanliness word is "clean" with the object of the job ("cleaned the drain", "cleaning
 * out the trap"): that is the work, not the state the home was left in.
 */
export function cleansJobObject(tokens: Tokens, clause: Clause): boolean {
  let object = false;
  for (let i = clause.first; i < clause.last; i++) {
    if (tokens.lemma[i] !== "clean") continue;
    let j = i + 1;
    while (j < clause.last && DETERMINERS.has(tokens.normal[j] as string)) j++;
    const next = tokens.normal[j];
    if (next === undefined || j >= clause.last || tokens.punct[j] === 1 || tokens.nominal[j] === 0) return false;
    if (CLEANED_PLACES.has(next) || CLEANED_PLACES.has(tokens.lemma[j] as string)) return false;
    object = true;
  }
  return object;
}

/**
 * The gate a reading of clause `at` as `aspect` meets, or null when it may be quoted. `cued`: the rule layer
 * found a word of the aspect in the clause.
 */
export function quoteGate(
  review: ReviewContext,
  at: number,
  aspect: AspectId,
  polarity: ClausePolarity,
  cued: boolean,
): QuoteGate | null {
  const clause = review.clauses[at] as Clause;
  const score = review.scores[at] as ClauseScore;
  if (aboutOtherParty(review, at)) return "other-party";
  // A clause with no word of its aspect says it only by implication, which a reader cannot check.
  if (!cued) return "no-cue";
  // "They billed $300 and left", "Final invoice: $1,950": a charge stated flatly judges nothing.
  if (aspect === "price" && polarity !== "neutral" && !judges(score, aspect)) return "bare-amount";
  if (aspect === "cleanliness" && cleansJobObject(review.tokens, clause)) return "job-object";
  return null;
}
