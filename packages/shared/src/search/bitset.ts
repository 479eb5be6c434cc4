/** Word-level helpers over bitmaps of review positions (bit p of word p >>> 5). */

/** Set bits in a 32-bit word (SWAR popcount). */
export function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The bits of word `w` that lie in positions [from, to). */
export function rangeMask(w: number, from: number, to: number): number {
  const start = w << 5;
  let mask = 0xffffffff;
  if (from > start) mask &= from - start >= 32 ? 0 : (0xffffffff << (from - start)) >>> 0;
  if (to < start + 32) mask &= to <= start ? 0 : 0xffffffff >>> (32 - (to - start));
  return mask >>> 0;
}

/** Calls `visit` with every set bit's position of `word` (word index `w`), lowest first; stops when it returns false. */
export function forEachBit(word: number, w: number, visit: (position: number) => boolean | undefined): boolean {
  let bits = word;
  while (bits !== 0) {
    const low = bits & -bits;
    bits ^= low;
    if (visit((w << 5) + (31 - Math.clz32(low))) === false) return false;
  }
  return true;
}
