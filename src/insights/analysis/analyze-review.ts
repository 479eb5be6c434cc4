import {
  ASPECT_IDS,
  type AspectId,
  type AspectJudgement,
  type EvidenceSpan,
  type ReviewAnalysis,
} from "../../schemas/analysis.ts";
import type { Lexicon } from "../../schemas/lexicon.ts";
import { type Clause, splitClauses } from "./clauses.ts";
import { type CompiledLexicon, compileLexicon } from "./compile.ts";
import { type ClauseScore, type IdiomHit, scoreClause } from "./score-clause.ts";
import { type Tokens, tokenize } from "./tokens.ts";

export { lexiconHash, loadLexicon, METHOD_VERSION } from "./lexicon.ts";

export interface Analyzer {
  analyze(text: string, rating?: number): ReviewAnalysis;
  /** The same analysis with the tokens it was read from, so the topic phrases need no second wink pass. */
  analyzeWithTokens(text: string, rating?: number): { analysis: ReviewAnalysis; tokens: Tokens };
}

export interface AnalyzerOptions {
  /**
   * Skip an idiom rule when none of its required keywords occurs in the review (default true). The keywords
   * are derived so that skipping never changes a result; turning this off is for tests that check so.
   */
  prefilter?: boolean;
}

/** 1 where a keyword of the lexicon occurs in the review being analysed; reused (analysis is synchronous). */
let present = new Uint8Array(0);

function mayMatch(rule: CompiledLexicon["idioms"][number]): boolean {
  if (rule.keywords === null) return true;
  for (const clause of rule.keywords) if (!clause.some((k) => present[k] === 1)) return false;
  return true;
}

/** Idiom rules run once over the whole review; each match counts for the clause it starts in. */
function idiomHits(text: string, clauses: Clause[], lex: CompiledLexicon, prefilter: boolean): IdiomHit[][] {
  const out: IdiomHit[][] = clauses.map(() => []);
  if (clauses.length === 0) return out;
  let lower = text.toLowerCase();
  // Lower-casing can change the length of some letters; offsets must stay those of the text.
  if (lower.length !== text.length) lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  if (prefilter) {
    if (present.length < lex.keywords.length) present = new Uint8Array(lex.keywords.length);
    else present.fill(0, 0, lex.keywords.length);
    lex.scanner.scan(lower, present);
  }
  for (const rule of lex.idioms) {
    if (prefilter && !mayMatch(rule)) continue;
    rule.regex.lastIndex = 0;
    let last = -1;
    for (let m = rule.regex.exec(lower); m !== null; m = rule.regex.exec(lower)) {
      const at = clauses.findIndex((c) => m !== null && m.index < c.end);
      if (at >= 0 && at !== last) {
        (out[at] as IdiomHit[]).push({ aspect: rule.aspect, valence: rule.valence, id: rule.id, at: m.index });
        last = at;
      }
      if (m[0].length === 0) rule.regex.lastIndex++;
    }
  }
  return out;
}

/** A clock time as written: hours (0-23 once resolved), minutes, and "am"/"pm" when the text says so. */
interface Clock {
  hour: number;
  minute: number;
  meridiem: "am" | "pm" | null;
}

function parseClock(text: string, next: string | undefined): Clock | null {
  if (text === "noon") return { hour: 12, minute: 0, meridiem: "pm" };
  let i = 0;
  let hour = 0;
  while (i < text.length && i < 2 && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) {
    hour = hour * 10 + text.charCodeAt(i) - 48;
    i++;
  }
  if (i === 0 || hour < 1 || hour > 12) return null;
  let minute = 0;
  if (text[i] === ":") {
    const mm = text.slice(i + 1, i + 3);
    if (mm.length !== 2 || !/^\d\d$/.test(mm)) return null;
    minute = Number(mm);
    i += 3;
  }
  const rest = text.slice(i) || (next !== undefined && MERIDIEM.has(next) ? next : "");
  if (rest !== "" && !MERIDIEM.has(rest)) return null;
  const meridiem = rest === "" ? null : rest.startsWith("a") ? "am" : "pm";
  return { hour, minute, meridiem };
}

const MERIDIEM = new Set(["am", "pm", "a.m.", "p.m.", "a.m", "p.m"]);
/** Words that make a time range a promised arrival window when its sentence has one of them. */
const PROMISE_WORDS = new Set([
  "window",
  "between",
  "told",
  "said",
  "say",
  "promised",
  "promise",
  "appointment",
  "scheduled",
  "booked",
  "slot",
  "eta",
  "arrival",
  "gave",
  "give",
  "confirmed",
]);
/** After a range, these make it a duration or a quantity ("2-3 days", "8-10 years"), not clock times. */
const UNITS = new Set([
  "day",
  "days",
  "hour",
  "hours",
  "hr",
  "hrs",
  "minute",
  "minutes",
  "min",
  "mins",
  "week",
  "weeks",
  "month",
  "months",
  "year",
  "years",
  "yrs",
  "gallon",
  "gallons",
  "gal",
  "inch",
  "inches",
  "feet",
  "foot",
  "ft",
  "psi",
  "%",
  "percent",
  "people",
  "times",
  "visits",
  "quotes",
  "stars",
  "star",
]);
/** Lemmas before "at/around/until <time>" that make the time an arrival ("showed up at 1", "sat around until 11:45"). */
const ARRIVAL = new Set(["show", "arrive", "come", "here", "there", "pull", "roll", "knock", "sit", "wait"]);
/** Nouns right after a time or range that make it the promised one ("an 8:00 appointment", "an 8-11 window"). */
const WINDOW_NOUNS = new Set(["appointment", "window", "slot", "arrival"]);
/** "appointment (was set) for 9", "scheduled for 9": the word before "for"/"at" that makes the time a booking. */
const BOOKED_FOR = new Set(["appointment", "set", "scheduled", "booked", "was"]);
const ARRIVAL_PREPOSITIONS = new Set(["at", "around", "until", "till", "til", "after"]);
const APPROXIMATELY = new Set([
  "almost",
  "nearly",
  "about",
  "around",
  "like",
  "exactly",
  "precisely",
  "right",
  "past",
  "after",
]);
/** Before an arrival phrase, these make it a promise ("said he'd be here at 9"). */
const PROMISING = new Set([
  "said",
  "told",
  "promised",
  "supposed",
  "would",
  "'d",
  "will",
  "should",
  "gonna",
  "expected",
]);

/** Hours past the end of the window after which an arrival is late, and up to which it is on time. */
const GRACE_LATE = 1 / 6;
const GRACE_ON_TIME = 1 / 12;

function hours(c: Clock): number {
  return c.hour + c.minute / 60;
}

/** A promised window [from, to] in hours of the day, from its first (and last) clock time as written. */
function resolveWindow(a: Clock, b: Clock): [number, number] {
  let to = hours(b) + (b.meridiem === "pm" && b.hour < 12 ? 12 : 0) - (b.meridiem === "am" && b.hour === 12 ? 12 : 0);
  let from = hours(a) + (a.meridiem === "pm" && a.hour < 12 ? 12 : 0);
  if (a.meridiem === null) {
    if (b.meridiem === "pm" && a.hour < 12 && hours(a) + 12 <= to) from += 12;
    else if (b.meridiem === null && a.hour < 7) from += 12;
  }
  if (b.meridiem === null && to < from) to += 12;
  return [from, Math.max(from, to)];
}

/** An arrival time in hours of the day: as written when it says am/pm, else the reading nearest the window. */
function resolveArrival(c: Clock, [from, to]: [number, number]): number {
  const base = hours(c);
  if (c.meridiem !== null) return base + (c.meridiem === "pm" && c.hour < 12 ? 12 : 0);
  const distance = (t: number) => (t < from ? from - t : t > to ? t - to : 0);
  const later = c.hour < 12 ? base + 12 : base;
  return distance(later) < distance(base) ? later : base;
}

/**
 * Arrival against the promised window, when the review gives both as clock times ("the window was 8-12 and
 * he came at 3", "was told 1-3pm, he was there at 1:05"): within the window (or up to an hour early) is
 * punctuality positive, more than a quarter of an hour after it negative. One linear pass over the tokens;
 * the judgement counts for the clause of the arrival.
 */
function windowHits(tokens: Tokens, clauses: Clause[], out: IdiomHit[][]) {
  const n = tokens.normal.length;
  let window: [number, number] | null = null;
  const arrivals: { at: number; clock: Clock }[] = [];
  let sentence = 0;
  let promiseSentence = -1;
  for (let i = 0; i < n; i++) {
    while (sentence < tokens.sentences.length && i > ((tokens.sentences[sentence] as number[])[1] as number))
      sentence++;
    const form = tokens.normal[i] as string;
    if (PROMISE_WORDS.has(form) || PROMISE_WORDS.has(tokens.lemma[i] as string)) promiseSentence = sentence;
    const c = form.charCodeAt(0);
    if (c < 48 || c > 57 || tokens.normal[i - 1] === "$") continue;
    const dash = form.indexOf("-");
    let range: [Clock, Clock] | null = null;
    let last = i;
    if (dash > 0) {
      const a = parseClock(form.slice(0, dash), undefined);
      const b = parseClock(form.slice(dash + 1), tokens.normal[i + 1]);
      if (a && b) range = [a, b];
    } else {
      const a = parseClock(form, tokens.normal[i + 1]);
      if (!a) continue;
      let j = i + 1;
      if (a.meridiem !== null && MERIDIEM.has(tokens.normal[j] as string)) j++;
      const link = tokens.normal[j];
      const between = tokens.normal[i - 1] === "between";
      if (link === "-" || link === "to" || link === "til" || (link === "and" && between)) {
        const b = parseClock(tokens.normal[j + 1] ?? "", tokens.normal[j + 2]);
        if (b) {
          range = [a, b];
          last = j + 1;
        }
      }
      if (!range) {
        const prev = tokens.normal[i - 1] as string;
        const prev2 = tokens.normal[i - 2] as string;
        const next = tokens.normal[j] as string;
        if (WINDOW_NOUNS.has(next) || ((prev === "for" || prev === "at") && BOOKED_FOR.has(prev2))) {
          if (WINDOW_NOUNS.has(next) || promiseSentence === sentence) range = [a, a];
        } else if (ARRIVAL_PREPOSITIONS.has(prev) || (APPROXIMATELY.has(prev) && ARRIVAL_PREPOSITIONS.has(prev2))) {
          // An arrival: a verb of arriving shortly before the preposition, in the same stretch of words.
          const prep = ARRIVAL_PREPOSITIONS.has(prev) ? i - 1 : i - 2;
          let arriving = false;
          let promising = false;
          for (let k = prep - 1; k >= Math.max(0, prep - 6); k--) {
            if (tokens.punct[k] === 1) break;
            if (ARRIVAL.has(tokens.lemma[k] as string) || ARRIVAL.has(tokens.normal[k] as string)) arriving = true;
            if (PROMISING.has(tokens.normal[k] as string) || PROMISING.has(tokens.lemma[k] as string)) promising = true;
          }
          if (arriving && promising) range = [a, a];
          else if (arriving) arrivals.push({ at: i, clock: a });
        }
      }
    }
    if (!range) continue;
    const after = tokens.normal[last + 1] as string;
    const single = range[0] === range[1];
    const promised =
      single || promiseSentence === sentence || WINDOW_NOUNS.has(after) || tokens.normal[i - 1] === "between";
    if (window === null && !UNITS.has(after) && promised) window = resolveWindow(range[0], range[1]);
    i = last;
  }
  if (window === null) return;
  for (const { at, clock } of arrivals) {
    const time = resolveArrival(clock, window);
    // Ten minutes' grace after the window; up to an hour early still counts as on time.
    const valence =
      time > window[1] + GRACE_LATE ? -2 : time <= window[1] + GRACE_ON_TIME && time >= window[0] - 1 ? 2 : 0;
    if (valence === 0) continue;
    const clause = clauses.findIndex((c) => at >= c.first && at < c.last);
    if (clause < 0) continue;
    (out[clause] as IdiomHit[]).push({
      aspect: "punctuality",
      valence,
      id: valence > 0 ? "arrived-within-window" : "arrived-after-window",
      at: tokens.start[at] as number,
    });
  }
}

/** Lemmas shortly before an amount that make it the quoted price, or the price finally charged. */
const QUOTE_WORDS = new Set(["quote", "quoted", "estimate", "estimated", "bid"]);
const FINAL_WORDS = new Set([
  "invoice",
  "bill",
  "final",
  "total",
  "charge",
  "charged",
  "billed",
  "pay",
  "paid",
  "came",
]);
/** How many tokens before an amount its quote or final word may stand, and how many sentences apart the two may be. */
const MONEY_REACH = 6;
const MONEY_SENTENCES = 2;

/** The amount a "$" token or a number before "dollars"/"bucks" stands for, or NaN. */
function amountAt(tokens: Tokens, i: number): number {
  const form = tokens.normal[i] as string;
  const c = form.charCodeAt(0);
  if (c < 48 || c > 57) return Number.NaN;
  const prev = tokens.normal[i - 1];
  const next = tokens.normal[i + 1];
  if (prev !== "$" && next !== "dollars" && next !== "bucks") return Number.NaN;
  let value = 0;
  for (let k = 0; k < form.length; k++) {
    const d = form.charCodeAt(k);
    if (d >= 48 && d <= 57) value = value * 10 + d - 48;
    else if (d === 46) break;
    else if (d !== 44) return Number.NaN;
  }
  return next === "k" ? value * 1000 : value;
}

/** Which of the two word sets stands nearest before token `i` in its sentence: "quote", "final" or null. */
function amountRole(tokens: Tokens, i: number, sentenceStart: number): "quote" | "final" | null {
  for (let k = i - 1; k >= Math.max(sentenceStart, i - MONEY_REACH); k--) {
    const lemma = tokens.lemma[k] as string;
    const form = tokens.normal[k] as string;
    if (QUOTE_WORDS.has(form) || QUOTE_WORDS.has(lemma)) return "quote";
    if (FINAL_WORDS.has(form) || FINAL_WORDS.has(lemma)) return "final";
  }
  return null;
}

/**
 * The final bill against the quote, when the review gives both as amounts ("quoted $289 ... the invoice was
 * $612", "the quote was $1,200 and the final bill was $1,200"): more than 10% over is price negative, at or
 * under the quote positive. One linear pass over the tokens; the judgement counts for the clause of the bill.
 */
function quoteHits(tokens: Tokens, clauses: Clause[], out: IdiomHit[][]) {
  let quote = Number.NaN;
  let quoteSentence = -1;
  let sentence = 0;
  for (let i = 0; i < tokens.normal.length; i++) {
    while (sentence < tokens.sentences.length && i > ((tokens.sentences[sentence] as number[])[1] as number))
      sentence++;
    const amount = amountAt(tokens, i);
    if (Number.isNaN(amount) || amount === 0) continue;
    const start = ((tokens.sentences[sentence] as number[] | undefined)?.[0] as number | undefined) ?? 0;
    const role = amountRole(tokens, i, start);
    if (role === "quote" && Number.isNaN(quote)) {
      quote = amount;
      quoteSentence = sentence;
    } else if (role === "final" && !Number.isNaN(quote) && sentence - quoteSentence <= MONEY_SENTENCES) {
      const valence = amount > quote * 1.1 ? -2 : amount <= quote ? 2 : 0;
      const clause = clauses.findIndex((c) => i >= c.first && i < c.last);
      if (valence !== 0 && clause >= 0) {
        (out[clause] as IdiomHit[]).push({
          aspect: "price",
          valence,
          id: valence > 0 ? "bill-matched-quote" : "bill-over-quote",
          at: tokens.start[i] as number,
        });
      }
      return;
    }
  }
}

/** A judgement-free clause after "but" reads against the clause before it ("great work, except the price"). */
function carryContrast(clauses: Clause[], scores: ClauseScore[], lex: CompiledLexicon) {
  const { threshold, contrast_carry } = lex.settings;
  for (let i = 1; i < clauses.length; i++) {
    const c = clauses[i] as Clause;
    const p = clauses[i - 1] as Clause;
    const s = scores[i] as ClauseScore;
    const ps = scores[i - 1] as ClauseScore;
    if (!c.afterContrast || p.sentence !== c.sentence || s.total !== 0 || Math.abs(ps.total) < threshold) continue;
    for (const a of s.aspects) a.score = contrast_carry * Math.sign(ps.total);
  }
}

function isSarcasm(score: ClauseScore, rating: number | undefined, lex: CompiledLexicon): boolean {
  if (rating === undefined || rating > 2 || score.total <= 0) return false;
  return score.sarcasmMarker || score.total >= lex.settings.sarcasm_score;
}

export function createAnalyzer(lexicon: Lexicon, options: AnalyzerOptions = {}): Analyzer {
  const prefilter = options.prefilter ?? true;
  const lex = compileLexicon(lexicon);
  const { threshold } = lex.settings;
  const analyzeWithTokens = (text: string, rating?: number) => {
    const tokens = tokenize(text, lex.personNames);
    return { analysis: analyzeTokens(text, tokens, rating), tokens };
  };
  return { analyze: (text, rating) => analyzeWithTokens(text, rating).analysis, analyzeWithTokens };

  function analyzeTokens(text: string, tokens: Tokens, rating?: number): ReviewAnalysis {
    const clauses = splitClauses(tokens, lex.contrast);
    const idioms = idiomHits(text, clauses, lex, prefilter);
    windowHits(tokens, clauses, idioms);
    quoteHits(tokens, clauses, idioms);
    const lowRating = rating !== undefined && rating <= 2;
    const scores = clauses.map((c, i) => scoreClause(tokens, c, lex, idioms[i] as IdiomHit[], lowRating));
    carryContrast(clauses, scores, lex);
    const evidence = new Map<AspectId, EvidenceSpan[]>();
    const suspected: ReviewAnalysis["suspected_sarcasm"] = [];
    clauses.forEach((clause, i) => {
      const score = scores[i] as ClauseScore;
      const sarcastic = isSarcasm(score, rating, lex);
      if (sarcastic) suspected.push({ start: clause.start, end: clause.end });
      for (const a of score.aspects) {
        // Abstain: a clause that names an aspect without a clear judgement makes no claim.
        if (Math.abs(a.score) < threshold || (sarcastic && a.score > 0)) continue;
        const span: EvidenceSpan = {
          start: clause.start,
          end: clause.end,
          polarity: a.score > 0 ? "positive" : "negative",
          cue: a.cue,
          score: Math.round(a.score * 1000) / 1000,
        };
        const list = evidence.get(a.aspect);
        if (list) list.push(span);
        else evidence.set(a.aspect, [span]);
      }
    });
    const aspects: AspectJudgement[] = [];
    for (const aspect of ASPECT_IDS) {
      const spans = evidence.get(aspect);
      if (!spans) continue;
      const pos = spans.some((s) => s.polarity === "positive");
      const neg = spans.some((s) => s.polarity === "negative");
      aspects.push({ aspect, polarity: pos && neg ? "mixed" : pos ? "positive" : "negative", evidence: spans });
    }
    return { aspects, suspected_sarcasm: suspected };
  }
}
