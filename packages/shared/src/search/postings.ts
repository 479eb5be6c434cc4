import { popcount } from "./bitset.ts";

/**
 * A set of review positions, stored in whichever form is smaller: a sorted list of positions when
 * sparse, a bitmap over all positions when dense (from one position in 32 on). Posting sets per
 * rating, technician, service, area and text gram all use it.
 */
export type Posting =
  | { kind: "list"; size: number; positions: Uint32Array }
  | { kind: "bits"; size: number; words: Uint32Array };

/** Whether a set of `size` positions out of `count` is stored as a bitmap. */
export const isDense = (size: number, count: number): boolean => size * 32 >= count;

export const bitmapWords = (count: number): number => Math.ceil(count / 32);

/** The posting of sorted, distinct `positions` out of `count`, as it is stored (u32 words). */
export function encodePosting(positions: ArrayLike<number>, count: number): Uint32Array {
  if (!isDense(positions.length, count)) return Uint32Array.from(positions);
  const words = new Uint32Array(bitmapWords(count));
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i] as number;
    words[p >>> 5] = (words[p >>> 5] as number) | (1 << (p & 31));
  }
  return words;
}

/** A stored posting of `size` positions out of `count`, read from `words` (no copy). */
export function decodePosting(words: Uint32Array, size: number, count: number): Posting {
  return isDense(size, count) ? { kind: "bits", size, words } : { kind: "list", size, positions: words };
}

/**
 * Membership for positions asked in increasing order (how a search visits its candidates): a
 * bitmap answers directly, a list moves a pointer forward, so a whole search costs one pass.
 */
export function memberTest(posting: Posting): (position: number) => boolean {
  if (posting.kind === "bits") {
    const { words } = posting;
    return (p) => (((words[p >>> 5] as number) >>> (p & 31)) & 1) === 1;
  }
  const { positions } = posting;
  let at = 0;
  return (p) => {
    while (at < positions.length && (positions[at] as number) < p) at++;
    return at < positions.length && positions[at] === p;
  };
}

function lowerBound(positions: Uint32Array, value: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((positions[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Calls `visit` for every position of `posting` in [from, to), in increasing order. */
export function forEachIn(posting: Posting, from: number, to: number, visit: (position: number) => void): void {
  if (posting.kind === "list") {
    const { positions } = posting;
    for (let i = lowerBound(positions, from); i < positions.length; i++) {
      const p = positions[i] as number;
      if (p >= to) return;
      visit(p);
    }
    return;
  }
  const { words } = posting;
  for (let w = from >>> 5; w < words.length && w << 5 < to; w++) {
    let bits = words[w] as number;
    while (bits !== 0) {
      const low = bits & -bits;
      const p = (w << 5) + (31 - Math.clz32(low));
      bits ^= low;
      if (p >= to) return;
      if (p >= from) visit(p);
    }
  }
}

/** The union of postings of `count` positions: one of them as it is, several ORed into a bitmap first. */
export function unionOf(postings: readonly Posting[], count: number): Posting {
  if (postings.length === 1) return postings[0] as Posting;
  const words = new Uint32Array(bitmapWords(count));
  for (const posting of postings) {
    if (posting.kind === "bits") {
      for (let w = 0; w < words.length; w++) words[w] = (words[w] as number) | (posting.words[w] as number);
    } else {
      for (const p of posting.positions) words[p >>> 5] = (words[p >>> 5] as number) | (1 << (p & 31));
    }
  }
  let size = 0;
  for (const word of words) size += popcount(word);
  const bits: Posting = { kind: "bits", size, words };
  if (isDense(size, count)) return bits;
  const positions = new Uint32Array(size);
  let at = 0;
  forEachIn(bits, 0, count, (p) => {
    positions[at++] = p;
  });
  return { kind: "list", size, positions };
}
