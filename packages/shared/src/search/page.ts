import type { SearchSort } from "../schemas/search.ts";
import { popcount } from "./bitset.ts";
import { type Matches, wordReader } from "./match.ts";
import type { SearchIndex } from "./search-index.ts";

/**
 * Positions of ranks [start, start + limit) of `matches` in increasing (or decreasing) position
 * order, restricted to the positions `only` keeps (a rating's bits, word by word); whole words
 * before the start are skipped by counting their bits.
 */
function take(
  matches: Matches,
  start: number,
  limit: number,
  descending: boolean,
  only?: { word: (w: number) => number; has: (p: number) => boolean },
): number[] {
  const out: number[] = [];
  let skip = start;
  if (matches.kind === "list") {
    const { positions } = matches;
    for (let i = 0; i < positions.length && out.length < limit; i++) {
      const p = positions[descending ? positions.length - 1 - i : i] as number;
      if (only && !only.has(p)) continue;
      if (skip > 0) skip--;
      else out.push(p);
    }
    return out;
  }
  const { words, fromWord, toWord } = matches;
  for (let i = 0; i < toWord - fromWord && out.length < limit; i++) {
    const w = descending ? toWord - 1 - i : fromWord + i;
    const word = only ? ((words[w] as number) & only.word(w)) >>> 0 : (words[w] as number);
    if (word === 0) continue;
    const bits = popcount(word);
    if (skip >= bits) {
      skip -= bits;
      continue;
    }
    for (let b = 0; b < 32 && out.length < limit; b++) {
      const bit = descending ? 31 - b : b;
      if (((word >>> bit) & 1) === 0) continue;
      if (skip > 0) skip--;
      else out.push((w << 5) + bit);
    }
  }
  return out;
}

/** How many matches have each rating (index 1 to 5). */
function countByRating(index: SearchIndex, matches: Matches): number[] {
  const counts = [0, 0, 0, 0, 0, 0];
  if (matches.kind === "list") {
    for (const p of matches.positions)
      counts[index.ratings[p] as number] = (counts[index.ratings[p] as number] ?? 0) + 1;
    return counts;
  }
  for (const [value, posting] of index.facets.rating) {
    const read = wordReader(posting);
    let count = 0;
    for (let w = matches.fromWord; w < matches.toWord; w++) count += popcount((matches.words[w] as number) & read(w));
    counts[Number(value)] = count;
  }
  return counts;
}

/** The positions of one page of matches in the requested order (ratings: ties newest first). */
export function pagePositions(
  index: SearchIndex,
  matches: Matches,
  sort: SearchSort,
  start: number,
  limit: number,
): number[] {
  if (sort === "newest" || sort === "oldest") return take(matches, start, limit, sort === "oldest");
  const counts = countByRating(index, matches);
  const ratings = sort === "highest" ? [5, 4, 3, 2, 1] : [1, 2, 3, 4, 5];
  const out: number[] = [];
  let skip = start;
  for (const rating of ratings) {
    const count = counts[rating] ?? 0;
    if (skip >= count) {
      skip -= count;
      continue;
    }
    const posting = index.facets.rating.get(String(rating));
    if (!posting) continue;
    const read = wordReader(posting);
    const only = { word: read, has: (p: number) => index.ratings[p] === rating };
    out.push(...take(matches, skip, limit - out.length, false, only));
    skip = 0;
    if (out.length >= limit) break;
  }
  return out;
}
