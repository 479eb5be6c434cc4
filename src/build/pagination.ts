/** Reviews per page of the review browser: bounded pages keep the build linear in the data. */
export const PAGE_SIZE = 50;

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

export function pageSlice<T>(items: readonly T[], page: number): readonly T[] {
  return items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
}
