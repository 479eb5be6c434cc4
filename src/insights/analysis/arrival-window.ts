// Implicit punctuality judgements: an arrival time read against the promised window or appointment
// ("the window was 8-12 and he came at 3"). Called by analyze-review.ts with the review's tokens.
import type { Clause } from "./clauses.ts";
import type { IdiomHit } from "./score-clause.ts";
import type { Tokens } from "./tokens.ts";

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
export function windowHits(tokens: Tokens, clauses: Clause[], out: IdiomHit[][]) {
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
