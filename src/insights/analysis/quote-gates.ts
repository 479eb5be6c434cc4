import type { AspectId, ClausePolarity } from "@riverbend/shared/schemas/analysis.ts";
import type { Clause } from "./clauses.ts";
import {
  announcesComplaint,
  barePraise,
  EXCUSES,
  holds,
  labelAndAmount,
  modifiesPrice,
  promiseOnly,
  RANKED_PARTY,
  scareQuoted,
} from "./quote-phrases.ts";
import type { ClauseScore } from "./score-clause.ts";
import type { Tokens } from "./tokens.ts";

/** What the gates read of a review: its tokens, its clauses and the rule layer's score of each. */
export interface ReviewContext {
  tokens: Tokens;
  clauses: readonly Clause[];
  scores: readonly ClauseScore[];
  /** The review's stars, when known: a positive quote in a 1- or 2-star review must not be a conditional. */
  rating?: number | undefined;
}

/**
 * Why a clause the analyser counts may still not be published as a quote (issue 13, point 4: a quote says
 * what it is published for, about this business). Counting is left alone: these are classes of clauses
 * that do not say it plainly, each decided from the clause's words and its neighbours.
 */
export type QuoteGate =
  | "other-party"
  | "bare-amount"
  | "job-object"
  | "no-cue"
  | "vague"
  | "excused"
  | "polarity"
  | "aspect-of-price"
  | "no-trait"
  | "promise-only"
  | "unreal";

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

/** "…, but it leaked again": a clause of the same sentence that goes on with "it" or "then" keeps the subject. */
const CONTINUATIONS = new Set(["it", "then", "that", "which", "and"]);

function continuesSentence(tokens: Tokens, clauses: readonly Clause[], j: number): boolean {
  const clause = clauses[j] as Clause;
  if (j === 0 || (clauses[j - 1] as Clause).sentence !== clause.sentence) return false;
  for (let i = clause.first; i < clause.last; i++) {
    if (tokens.punct[i] === 1) continue;
    return CONTINUATIONS.has(tokens.normal[i] as string);
  }
  return false;
}

/**
 * Another business's or person's earlier work is never evidence: the clause names one (even where the rule
 * layer kept a cue of another segment: "a company named Bright Pipes, which never showed up"; a comparison
 * "on time, unlike the other company" is the price of that), or continues what
 * a clause naming one began, by a pronoun ("The handyman tried first. He recaulked it, it held a week"),
 * over as many sentences as the pronouns go on, or by going on in the same sentence ("He patched it, but
 * it leaked again"). Any other subject ends the chain.
 */
export function aboutOtherParty(review: ReviewContext, at: number): boolean {
  const { tokens, clauses, scores } = review;
  for (let j = at; j >= 0; j--) {
    if ((scores[j] as ClauseScore).otherParty) return true;
    if (j === 0 || (!startsWithPronoun(tokens, clauses[j] as Clause) && !continuesSentence(tokens, clauses, j))) {
      return false;
    }
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

function excusedInSentence(review: ReviewContext, at: number): boolean {
  const sentence = (review.clauses[at] as Clause).sentence;
  return review.clauses.some((c) => c.sentence === sentence && EXCUSES.some((words) => holds(review.tokens, c, words)));
}

/**
 * Cues that count toward an aspect but name none: a generic evaluation ("the difference is too big to
 * ignore") says something was good or bad without saying what; a reader cannot check it against the aspect.
 */
const VAGUE_CUES = new Set(["too big", "difference-too-big"]);

/** The rule layer's score of the aspect in the clause: its own reading, sign and strength. */
function ruleScore(score: ClauseScore, aspect: AspectId): number {
  return score.aspects.find((a) => a.aspect === aspect)?.score ?? 0;
}

/** A clause word of a lexicon valence this strong is a clear trait ("polite", "great"), never lukewarm. */
const CLEAR_TRAIT = 2;
const CONDITIONAL = new Set(["if", "maybe", "would", "could", "'d", "might", "wish"]);

function conditional(tokens: Tokens, clause: Clause): boolean {
  for (let i = clause.first; i < clause.last; i++) if (CONDITIONAL.has(tokens.normal[i] as string)) return true;
  return false;
}

/**
 * The clause read on its own must carry the polarity it is published under: the rule layer's reading of
 * the aspect may not have the other sign ("kinda pricey" is not praise), a clear trait is not lukewarm,
 * and a positive clause in a 1- or 2-star review may not be a condition ("maybe if you'd shown up on time").
 */
function polarityDisagrees(review: ReviewContext, at: number, aspect: AspectId, polarity: ClausePolarity): boolean {
  const rule = ruleScore(review.scores[at] as ClauseScore, aspect);
  if (polarity === "neutral") return rule >= CLEAR_TRAIT;
  if ((polarity === "positive" && rule < 0) || (polarity === "negative" && rule > 0)) return true;
  const low = review.rating !== undefined && review.rating <= 2;
  return polarity === "positive" && low && conditional(review.tokens, review.clauses[at] as Clause);
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
  const { tokens } = review;
  if (aboutOtherParty(review, at) || holds(tokens, clause, RANKED_PARTY)) return "other-party";
  // A clause with no word of its aspect says it only by implication, which a reader cannot check.
  if (!cued) return "no-cue";
  const cue = score.aspects.find((a) => a.aspect === aspect)?.cue ?? "";
  if (VAGUE_CUES.has(cue)) return "vague";
  if (barePraise(tokens, clause)) return "no-trait";
  if (polarity !== "neutral" && promiseOnly(tokens, clause)) return "promise-only";
  // "They billed $300 and left", "Final invoice: $1,950": a charge stated flatly judges nothing.
  if (aspect === "price" && polarity !== "neutral" && (!judges(score, aspect) || labelAndAmount(tokens, clause))) {
    return "bare-amount";
  }
  if (aspect !== "price" && modifiesPrice(tokens, clause, cue)) return "aspect-of-price";
  if (aspect === "cleanliness" && cleansJobObject(tokens, clause)) return "job-object";
  if (polarityDisagrees(review, at, aspect, polarity)) return "polarity";
  if (polarity === "positive" && (announcesComplaint(tokens, clause) || scareQuoted(tokens, clause))) return "polarity";
  // "Toilet got fixed, price was about average": a lukewarm clause about two aspects does not say which one
  // is lukewarm.
  if (polarity === "neutral" && score.aspects.some((a) => a.aspect !== aspect)) return "polarity";
  // A wish names what did not happen ("should have been a replacement", "I would have paid double"), so a
  // reader has to work out which way it judges: other clauses carry the aspect's quotes.
  if (polarity !== "neutral" && score.wish >= 0) return "unreal";
  if (polarity === "negative" && excusedInSentence(review, at)) return "excused";
  return null;
}
