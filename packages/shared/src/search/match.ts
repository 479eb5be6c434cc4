import type { SearchParams } from "../schemas/search.ts";
import { forEachBit, popcount, rangeMask } from "./bitset.ts";
import { forEachIn, memberTest, type Posting } from "./postings.ts";
import type { SearchIndex } from "./search-index.ts";
import { rememberText, type TextFilter, textFilter } from "./text-postings.ts";
import { dateNumber } from "./write-index.ts";

/** The filters of a search, resolved against the index (technician keys to display names). */
export type Filters = Pick<SearchParams, "rating" | "min_rating" | "since" | "until" | "query"> & {
  technicians?: readonly string[];
  service?: string;
  area?: string;
  topic?: string;
};

/** Reviews that hold any of the group's postings; a search ANDs its groups. */
export type Group = readonly Posting[];

/** The matches of a search in increasing position order: a list when few, else a bitmap over [from, to). */
export type Matches =
  | { kind: "list"; total: number; positions: Uint32Array }
  | { kind: "bits"; total: number; words: Uint32Array; fromWord: number; toWord: number };

/** First position whose date passes `keep`, given that dates do not increase along positions. */
function firstWhere(dates: Uint32Array, keep: (date: number) => boolean): number {
  let low = 0;
  let high = dates.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keep(dates[middle] as number)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The positions dated within [since, until]: a run, since positions are newest first. */
export function dateRange(index: SearchIndex, since?: string, until?: string): [from: number, to: number] {
  const last = until === undefined ? 0 : dateNumber(until);
  const first = since === undefined ? 0 : dateNumber(since);
  const from = until === undefined ? 0 : firstWhere(index.dates, (d) => d <= last);
  const to = since === undefined ? index.count : firstWhere(index.dates, (d) => d < first);
  return [from, Math.max(from, to)];
}

/** The filters as posting groups; undefined when one of them can match nothing. */
function groupsOf(index: SearchIndex, filters: Filters, text: TextFilter | undefined): Group[] | undefined {
  const groups: Group[] = [];
  const add = (postings: (Posting | undefined)[]) => {
    const found = postings.filter((p): p is Posting => p !== undefined);
    groups.push(found);
    return found.length > 0;
  };
  const { rating, technician, service, area, topic } = index.facets;
  if (filters.rating !== undefined && !add([rating.get(String(filters.rating))])) return undefined;
  if (filters.min_rating !== undefined) {
    const min = filters.min_rating;
    if (!add([...rating].filter(([value]) => Number(value) >= min).map(([, posting]) => posting))) return undefined;
  }
  if (filters.technicians !== undefined && !add(filters.technicians.map((name) => technician.get(name)))) {
    return undefined;
  }
  if (filters.service !== undefined && !add([service.get(filters.service)])) return undefined;
  if (filters.area !== undefined && !add([area.get(filters.area)])) return undefined;
  if (filters.topic !== undefined && !add([topic.get(filters.topic)])) return undefined;
  if (text?.kind === "none") return undefined;
  if (text?.kind === "exact") groups.push([text.posting]);
  if (text?.kind === "candidates") for (const gram of text.grams) groups.push([gram]);
  return groups;
}

const EMPTY: Matches = { kind: "list", total: 0, positions: new Uint32Array(0) };
const scratch = new WeakMap<SearchIndex, { list: Uint32Array; words: Uint32Array }>();

function scratchOf(index: SearchIndex) {
  let buffers = scratch.get(index);
  if (!buffers) {
    buffers = { list: new Uint32Array(index.count), words: new Uint32Array(Math.ceil(index.count / 32)) };
    scratch.set(index, buffers);
  }
  return buffers;
}

/**
 * The reviews in positions [from, to) that hold every group. With a small list among the groups
 * (or a short date run) its positions are visited and tested against the others; otherwise the
 * bitmaps are combined a word (32 reviews) at a time. Results live in buffers the next call of
 * the same index reuses: callers read them before searching again.
 */
export function evaluate(index: SearchIndex, groups: readonly Group[], from: number, to: number): Matches {
  if (from >= to) return EMPTY;
  let driver: Posting | undefined;
  for (const group of groups) {
    const only = group.length === 1 ? group[0] : undefined;
    if (only?.kind === "list" && (driver === undefined || only.size < driver.size)) driver = only;
  }
  const range = to - from;
  // Visiting costs per candidate, combining per 32 positions per posting: pick the cheaper.
  if (range <= 64 || (driver !== undefined && driver.size * 8 < range)) {
    const { list } = scratchOf(index);
    const tests = groups
      .filter((group) => !(group.length === 1 && group[0] === driver))
      .map((group) => group.map(memberTest));
    let total = 0;
    const visit = (p: number) => {
      for (const test of tests) if (!test.some((has) => has(p))) return;
      list[total++] = p;
    };
    if (driver) forEachIn(driver, from, to, visit);
    else for (let p = from; p < to; p++) visit(p);
    return { kind: "list", total, positions: list.subarray(0, total) };
  }
  const { words } = scratchOf(index);
  const fromWord = from >>> 5;
  const toWord = (to + 31) >>> 5;
  const wordsOf = groups.map((group) => group.map(wordReader));
  let total = 0;
  for (let w = fromWord; w < toWord; w++) {
    let word = rangeMask(w, from, to);
    for (let g = 0; g < wordsOf.length && word !== 0; g++) {
      const readers = wordsOf[g] as ((w: number) => number)[];
      let any = 0;
      for (const read of readers) any |= read(w);
      word &= any;
    }
    words[w] = word;
    total += popcount(word);
  }
  return { kind: "bits", total, words, fromWord, toWord };
}

/** A posting's bits word by word, for words asked in increasing order (a list moves a pointer). */
export function wordReader(posting: Posting): (w: number) => number {
  if (posting.kind === "bits") {
    const { words } = posting;
    return (w) => words[w] as number;
  }
  const { positions } = posting;
  let at = 0;
  return (w) => {
    const start = w << 5;
    while (at < positions.length && (positions[at] as number) < start) at++;
    let word = 0;
    for (let i = at; i < positions.length && (positions[i] as number) < start + 32; i++) {
      word |= 1 << ((positions[i] as number) - start);
    }
    return word >>> 0;
  };
}

/** Calls `visit` for every match in increasing position order; stops when it returns false. */
export function forEachMatch(matches: Matches, visit: (position: number) => boolean | undefined): void {
  if (matches.kind === "list") {
    for (const p of matches.positions) if (visit(p) === false) return;
    return;
  }
  for (let w = matches.fromWord; w < matches.toWord; w++) {
    const word = matches.words[w] as number;
    if (word !== 0 && !forEachBit(word, w, visit)) return;
  }
}

/** Keeps the matches whose folded text contains `needle`, in place; returns the new total. */
function confirm(index: SearchIndex, matches: Matches, needle: string): Matches {
  const holds = (p: number) => index.folded(p).includes(needle);
  if (matches.kind === "list") {
    let kept = 0;
    for (const p of matches.positions) if (holds(p)) matches.positions[kept++] = p;
    return { kind: "list", total: kept, positions: matches.positions.subarray(0, kept) };
  }
  let total = 0;
  for (let w = matches.fromWord; w < matches.toWord; w++) {
    let word = matches.words[w] as number;
    forEachBit(word, w, (p) => {
      if (!holds(p)) word &= ~(1 << (p & 31));
      return true;
    });
    matches.words[w] = word >>> 0;
    total += popcount(word);
  }
  return { ...matches, total };
}

/**
 * The reviews matching every filter. A text query not yet confirmed is confirmed only on the
 * candidates left by the other filters; with no other filter its confirmed matches are kept.
 */
export function matchFilters(index: SearchIndex, filters: Filters): Matches {
  const text = filters.query === undefined ? undefined : textFilter(index, filters.query);
  const groups = groupsOf(index, filters, text);
  if (!groups) return EMPTY;
  const [from, to] = dateRange(index, filters.since, filters.until);
  const matches = evaluate(index, groups, from, to);
  if (text?.kind !== "candidates") return matches;
  const confirmed = confirm(index, matches, text.needle);
  const textOnly = groups.length === text.grams.length && from === 0 && to === index.count;
  if (textOnly) {
    const positions: number[] = [];
    forEachMatch(confirmed, (p) => {
      positions.push(p);
      return true;
    });
    rememberText(index, text.needle, positions);
  }
  return confirmed;
}
