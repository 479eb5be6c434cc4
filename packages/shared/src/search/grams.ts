/**
 * The text index's keys: every run of 1, 2 and 3 bytes of a review's folded text in UTF-8, as one
 * integer (length in the top byte). A query of up to 3 bytes is one key, whose reviews are exactly
 * its matches; a longer query is a candidate set (reviews holding all its 3-byte runs) that is then
 * checked with a substring test. A substring of UTF-8 bytes is a substring of the text, so no match
 * is missed.
 */
export function gramKey(bytes: Uint8Array, at: number, length: 1 | 2 | 3): number {
  let key = length << 24;
  for (let i = 0; i < length; i++) key |= (bytes[at + i] as number) << (8 * (length - 1 - i));
  return key >>> 0;
}

/** Calls `visit` with every key of `bytes` (repeats included); runs holding a NUL are skipped. */
export function forEachGram(bytes: Uint8Array, visit: (key: number) => void): void {
  for (let at = 0; at < bytes.length; at++) {
    for (let length = 1 as 1 | 2 | 3; length <= 3 && at + length <= bytes.length; length++) {
      if (bytes[at + length - 1] === 0) break;
      visit(gramKey(bytes, at, length));
    }
  }
}

/** The keys a folded query's matches must all hold: itself if at most 3 bytes, else its 3-byte runs. */
export function queryGrams(bytes: Uint8Array): { keys: number[]; exact: boolean } {
  if (bytes.length <= 3) return { keys: [gramKey(bytes, 0, bytes.length as 1 | 2 | 3)], exact: true };
  const keys = new Set<number>();
  for (let at = 0; at + 3 <= bytes.length; at++) keys.add(gramKey(bytes, at, 3));
  return { keys: [...keys], exact: false };
}
