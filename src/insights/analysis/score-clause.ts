import type { AspectId } from "@riverbend/shared/schemas/analysis.ts";
import type { Clause } from "./clauses.ts";
import type { CompiledLexicon } from "./compile.ts";
import { findHits, type Hit, segmentAt } from "./detect-aspects.ts";
import type { Tokens } from "./tokens.ts";

export interface AspectScore {
  aspect: AspectId;
  score: number;
  cue: string;
}

export interface IdiomHit {
  aspect: AspectId;
  valence: number;
  id: string;
  /** Character offset of the match in the review. */
  at: number;
}

export interface ClauseScore {
  aspects: AspectScore[];
  /** Sum of every valence in the clause, judged aspect or not; drives contrast carry and the sarcasm guard. */
  total: number;
  sarcasmMarker: boolean;
  /** The clause names another business, hedges ("another company", "I was worried") or sets a condition ("if"). */
  scoped: boolean;
  /** The clause names another business or person who worked on the job ("the handyman", "another company"). */
  otherParty: boolean;
  /** Where a wish begins in the clause (`wishStart`); -1: none. */
  wish: number;
}

function isNegator(tokens: Tokens, i: number, lex: CompiledLexicon): boolean {
  return lex.negators.has(tokens.normal[i] as string) || tokens.lemma[i] === "not";
}

const HYPOTHETICAL = new Set(["would", "could", "'d"]);

/** "If the price had been any higher...": a condition, not something that happened. */
function isConditional(tokens: Tokens, clause: Clause): boolean {
  for (let i = clause.first; i < clause.last; i++) if (tokens.normal[i] === "if") return true;
  return false;
}

/**
 * The clause states what would have been ("would've been", "would be 5 stars", "if they had told me"), so an
 * "if" in it is unreal.
 */
function isCounterfactual(tokens: Tokens, clause: Clause): boolean {
  for (let i = clause.first; i < clause.last - 2; i++) {
    // "If they had told me up front": a past perfect after "if" is unreal by itself.
    if (tokens.normal[i] === "if" && (tokens.normal[i + 2] === "had" || tokens.normal[i + 2] === "'d")) return true;
  }
  for (let i = clause.first; i < clause.last - 1; i++) {
    if (!HYPOTHETICAL.has(tokens.normal[i] as string)) continue;
    const next = tokens.lemma[i + 1] as string;
    if (next === "have" || next === "be") return true;
  }
  return false;
}

/**
 * Where a wish begins ("should have told us", "would've been nice to know up front", "I wish they'd tell
 * you", "would've been 5 stars if he'd been on time"): what it names did not happen, so a judgement after
 * it counts the other way. -1 when there is none.
 */
function wishStart(tokens: Tokens, clause: Clause): number {
  for (let i = clause.first; i < clause.last; i++) {
    const word = tokens.normal[i] as string;
    if (tokens.lemma[i] === "wish") return i;
    if ((HYPOTHETICAL.has(word) || word === "should") && tokens.lemma[i + 1] === "have") return i;
    if (word === "if" && isCounterfactual(tokens, clause)) return i;
  }
  return -1;
}

/** Verbs of cleaning up: the mess they take as object was dealt with ("wiped the dust off", "bagged up his mess"). */
const CLEANING = new Set([
  "wipe",
  "hose",
  "sweep",
  "vacuum",
  "mop",
  "clean",
  "bag",
  "haul",
  "remove",
  "rinse",
  "scrub",
]);

function cleanedBefore(tokens: Tokens, clause: Clause, at: number): boolean {
  for (let i = at - 1; i >= Math.max(clause.first, at - 4); i--) {
    if (tokens.punct[i] === 1) return false;
    if (CLEANING.has(tokens.lemma[i] as string)) return true;
  }
  return false;
}

function covered(hits: Hit[], i: number): boolean {
  for (const h of hits) if (i >= h.start && i < h.end) return true;
  return false;
}

/** Valence of a hit after a wish before it (`wish`: the clause's wishStart), the negation scope and intensifiers. */
function modify(
  base: number,
  hit: Hit,
  hits: Hit[],
  tokens: Tokens,
  clause: Clause,
  lex: CompiledLexicon,
  wish: number,
): number {
  let value = base;
  if (wish >= 0 && wish < hit.start) value *= lex.settings.negation_factor;
  const floor = Math.max(clause.first, hit.start - lex.settings.negation_window);
  for (let i = hit.start - 1; i >= floor; i--) {
    if (tokens.punct[i] === 1) break;
    if (lex.scopeBreakers.has(tokens.normal[i] as string)) break;
    if (isNegator(tokens, i, lex) && !covered(hits, i)) {
      value *= lex.settings.negation_factor;
      break;
    }
  }
  for (let i = hit.start - 1; i >= Math.max(clause.first, hit.start - 2); i--) {
    if (tokens.punct[i] === 1) break;
    const boost = lex.intensifiers.get(tokens.normal[i] as string);
    if (boost !== undefined) {
      value *= boost;
      break;
    }
  }
  return value;
}

/**
 * An opinion word about a part or the customer's problem describes it, not the business: heading its noun
 * phrase ("bad gas valve") or predicated of it ("the flame rod was bad").
 */
function describesProblem(hit: Hit, tokens: Tokens, clause: Clause, lex: CompiledLexicon): boolean {
  for (let i = hit.start - 1; i >= Math.max(clause.first, hit.start - 3); i--) {
    if (tokens.punct[i] === 1) break;
    if (tokens.lemma[i] === "be" || lex.intensifiers.has(tokens.normal[i] as string)) continue;
    if (lex.problemNouns.has(tokens.lemma[i] as string) || lex.problemNouns.has(tokens.normal[i] as string))
      return true;
    break;
  }
  for (let i = hit.end; i < Math.min(clause.last, hit.end + 3); i++) {
    if (tokens.punct[i] === 1 || tokens.nominal[i] === 0) return false;
    if (lex.problemNouns.has(tokens.lemma[i] as string) || lex.problemNouns.has(tokens.normal[i] as string))
      return true;
  }
  return false;
}

function segmentNames(hits: Hit[], from: Hit, aspect: AspectId): boolean {
  return hits.some((h) => h !== from && h.segment === from.segment && h.term.cue?.aspect === aspect);
}

function nearestCue(hits: Hit[], from: Hit): Hit | null {
  let best: Hit | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const h of hits) {
    if (!h.term.cue || h.segment !== from.segment) continue;
    // Ties go to the cue after the word: "great price" more often than "price, great".
    const distance = h.start > from.start ? h.start - from.end : from.start - h.end + 0.5;
    if (distance < bestDistance) {
      best = h;
      bestDistance = distance;
    }
  }
  return best;
}

/** The running scores of one clause; module-level helpers rather than closures, which cost per clause. */
interface Scoring {
  scores: Map<AspectId, AspectScore>;
  total: number;
}

function add(st: Scoring, aspect: AspectId, value: number, cue: string | null) {
  const s = st.scores.get(aspect);
  if (s) {
    s.score += value;
    if (s.cue === "" && cue) s.cue = cue;
  } else st.scores.set(aspect, { aspect, score: value, cue: cue ?? "" });
}

function addCue(
  st: Scoring,
  h: Hit,
  aspect: AspectId,
  base: number,
  hits: Hit[],
  tokens: Tokens,
  clause: Clause,
  lex: CompiledLexicon,
  wish: number,
) {
  let value = base === 0 ? 0 : modify(base, h, hits, tokens, clause, lex, wish);
  if (aspect === "cleanliness" && base < 0 && cleanedBefore(tokens, clause, h.start)) value = -value;
  add(st, aspect, value, h.pattern);
  st.total += value;
}

/** The aspect a cue judges: a conditioned word's resolved aspect ("neat" work: quality), else its own. */
function cueAspect(hits: Hit[], h: Hit | null): AspectId | undefined {
  if (!h) return undefined;
  return (h.term.conditioned && conditionedTarget(hits, h)?.[0]) || h.term.cue?.aspect;
}

function conditionedTarget(hits: Hit[], h: Hit): [AspectId, number] | undefined {
  for (const entry of h.term.conditioned as [AspectId, number][]) if (segmentNames(hits, h, entry[0])) return entry;
  return undefined;
}

/**
 * Drops the hits that an "other business" or a hedge phrase before them in their segment takes out of the
 * judgement ("had a handyman flush it and it's been fine since", "I was worried it would be a mess"), and
 * the idioms that start there. Returns the hits unchanged (no allocation) when the clause has no such phrase.
 */
function unscoped(
  hits: Hit[],
  idioms: IdiomHit[],
  tokens: Tokens,
  clause: Clause,
): { hits: Hit[]; idioms: IdiomHit[] } {
  let scoped = false;
  for (const h of hits) if (h.term.scope) scoped = true;
  if (!scoped) return { hits, idioms };
  const from = new Map<number, number>();
  for (const h of hits) if (h.term.scope && !from.has(h.segment)) from.set(h.segment, h.start);
  const kept = hits.filter((h) => {
    const start = from.get(h.segment);
    return start === undefined || h.start < start;
  });
  const keptIdioms = idioms.filter((idiom) => {
    const start = from.get(segmentAt(tokens, clause, idiom.at));
    return start === undefined || idiom.at < (tokens.start[start] as number);
  });
  return { hits: kept, idioms: keptIdioms };
}

export function scoreClause(
  tokens: Tokens,
  clause: Clause,
  lex: CompiledLexicon,
  clauseIdioms: IdiomHit[],
  withSarcasm = false,
): ClauseScore {
  const found = findHits(tokens, clause, lex, withSarcasm);
  const sarcasm = found.sarcasm;
  const { hits, idioms } = unscoped(found.hits, clauseIdioms, tokens, clause);
  const scoped = hits !== found.hits || found.hits.some((h) => h.term.scope) || isConditional(tokens, clause);
  const st: Scoring = { scores: new Map(), total: 0 };
  const wish = wishStart(tokens, clause);
  for (const h of hits) {
    const cue = h.term.cue;
    if (cue && !h.term.conditioned) addCue(st, h, cue.aspect, cue.valence, hits, tokens, clause, lex, wish);
  }
  for (const idiom of idioms) {
    add(st, idiom.aspect, idiom.valence, idiom.id);
    st.total += idiom.valence;
  }
  // An aspect-conditioned word judges an aspect the clause already names ("cheap" parts: quality);
  // otherwise it is the cue of its own aspect, if it has one ("not cheap": price).
  for (const h of hits) {
    if (!h.term.conditioned || describesProblem(h, tokens, clause, lex)) continue;
    const other = conditionedTarget(hits, h);
    if (other) {
      const value = modify(other[1], h, hits, tokens, clause, lex, wish);
      add(st, other[0], value, null);
      st.total += value;
    } else if (h.term.cue) addCue(st, h, h.term.cue.aspect, h.term.cue.valence, hits, tokens, clause, lex, wish);
  }
  for (const h of hits) {
    if (h.term.cue || h.term.conditioned || h.term.word === null || describesProblem(h, tokens, clause, lex)) continue;
    const value = modify(h.term.word, h, hits, tokens, clause, lex, wish);
    st.total += value;
    const target =
      cueAspect(hits, nearestCue(hits, h)) ?? (st.scores.size === 1 ? st.scores.keys().next().value : null);
    if (target) add(st, target, value, null);
  }
  const otherParty = found.hits.some((h) => h.term.scope === "other");
  return { aspects: [...st.scores.values()], total: st.total, sarcasmMarker: sarcasm, scoped, otherParty, wish };
}
