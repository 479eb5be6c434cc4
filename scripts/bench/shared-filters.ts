/**
 * The typical search filter mix that bench:api and bench:mcp both load the sidecar with: as typed
 * arguments (the search_reviews tool's input) and as /api/reviews/search URLs, so both benchmarks
 * measure the very same searches.
 */

/** The calendar date `days` before `date` (both YYYY-MM-DD, UTC). */
export const dayBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** The filters, relative to the newest review's date so every one of them matches some reviews. */
export function filterMix(newest: string): Record<string, string | number>[] {
  return [
    { rating: 5, limit: 20 },
    { min_rating: 4, since: dayBefore(newest, 365), limit: 20 },
    { query: "late", limit: 20 },
    { query: "quote", min_rating: 4 },
    { query: "window", sort: "highest", limit: 20 },
    { mentions_technician: "Dana", limit: 20 },
    { mentions_technician: "Luis", since: dayBefore(newest, 182) },
    { mentions_service: "water-heater-repair", limit: 20 },
    { mentions_service: "drain-cleaning", rating: 1 },
    { sort: "highest", limit: 20 },
  ];
}

export const queryString = (args: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)])).toString();

/** The same mix as search URLs; every connection rotates through all of them. */
export const searchPaths = (newest: string): string[] =>
  filterMix(newest).map((args) => `/api/reviews/search?${queryString(args)}`);
