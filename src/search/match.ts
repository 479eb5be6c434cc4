import type { SearchParams } from "../schemas/search.ts";
import { foldText } from "./fold.ts";
import { queryGrams } from "./grams.ts";
import { forEachIn, memberTest, type Posting } from "./postings.ts";
import type { SearchIndex } from "./search-index.ts";
import { dateNumber } from "./write-index.ts";

/** The filters of a search, resolved against the index (technician keys to display names). */
export type Filters = Pick<SearchParams, "rating" | "min_rating" | "since" | "until" | "query"> & {
  technicians?: readonly string[];
  service?: string;
};

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
  const from = until === undefined ? 0 : firstWhere(index.dates, (d) => d <= dateNumber(until));
  const to = since === undefined ? index.count : firstWhere(index.dates, (d) => d < dateNumber(since));
  return [from, Math.max(from, to)];
}

const scratch = new WeakMap<SearchIndex, Uint32Array>();

/**
 * The positions matching every filter, in increasing order (newest first). The smallest of the date
 * run and the posting sets drives; every other set is a membership test, ratings a lookup, and a
 * query longer than 3 bytes is confirmed by a substring test on its candidates only. The result is
 * a view over a buffer reused by the next call: copy what must outlive it.
 */
export function matchPositions(index: SearchIndex, filters: Filters): Uint32Array {
  const [from, to] = dateRange(index, filters.since, filters.until);
  const sets: Posting[] = [];
  const tests: ((position: number) => boolean)[] = [];
  const none = new Uint32Array(0);
  if (filters.rating !== undefined) {
    const set = index.facets.rating.get(String(filters.rating));
    if (!set) return none;
    sets.push(set);
  }
  if (filters.min_rating !== undefined) {
    const { ratings } = index;
    const min = filters.min_rating;
    tests.push((p) => (ratings[p] as number) >= min);
  }
  if (filters.technicians !== undefined) {
    const found = filters.technicians.flatMap((name) => index.facets.technician.get(name) ?? []);
    if (found.length === 0) return none;
    if (found.length === 1) sets.push(found[0] as Posting);
    else {
      const any = found.map(memberTest);
      tests.push((p) => any.some((has) => has(p)));
    }
  }
  if (filters.service !== undefined) {
    const set = index.facets.service.get(filters.service);
    if (!set) return none;
    sets.push(set);
  }
  let needle: string | undefined;
  if (filters.query !== undefined) {
    needle = foldText(filters.query);
    const { keys, exact } = queryGrams(Buffer.from(needle));
    for (const key of keys) {
      const set = index.gram(key);
      if (!set) return none;
      sets.push(set);
    }
    if (exact) needle = undefined;
  }
  sets.sort((a, b) => a.size - b.size);
  const driver = sets[0] !== undefined && sets[0].size < to - from ? sets.shift() : undefined;
  const checks = [...sets.map(memberTest), ...tests];
  if (needle !== undefined) {
    const text = needle;
    checks.push((p) => index.folded(p).includes(text));
  }
  let out = scratch.get(index);
  if (!out) {
    out = new Uint32Array(index.count);
    scratch.set(index, out);
  }
  const matches = out;
  let total = 0;
  const count = checks.length;
  const visit = (p: number) => {
    for (let c = 0; c < count; c++) if (!(checks[c] as (position: number) => boolean)(p)) return;
    matches[total++] = p;
  };
  if (driver) forEachIn(driver, from, to, visit);
  else for (let p = from; p < to; p++) visit(p);
  return matches.subarray(0, total);
}
