/** Reviews per page of the review browser: bounded pages keep the build linear in the data. */
export const PAGE_SIZE = 50;

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

export function pageSlice<T>(items: readonly T[], page: number): readonly T[] {
  return items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
}

/**
 * Page numbers the pager links to: the first, the last and two on each side of `page`, with `null`
 * for each gap. A bounded window keeps every page small; prev/next still reach every page.
 */
export function pageWindow(page: number, pages: number, radius = 2): (number | null)[] {
  const wanted = [1, pages];
  for (let n = Math.max(1, page - radius); n <= Math.min(pages, page + radius); n++) wanted.push(n);
  const sorted = [...new Set(wanted)].sort((a, b) => a - b);
  return sorted.flatMap((n, i) => (i > 0 && n - (sorted[i - 1] as number) > 1 ? [null, n] : [n]));
}
