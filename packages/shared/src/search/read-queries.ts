import { SearchParamsSchema, SinceParamsSchema } from "../schemas/search.ts";
import { prepareFromQuery } from "./query-string.ts";
import { type PreparedSince, prepareSince } from "./reviews-since.ts";
import type { SearchIndex } from "./search-index.ts";
import { type PreparedSearch, prepareSearch } from "./search-reviews.ts";

const SEARCH_PARAMETERS = Object.keys(SearchParamsSchema.shape);
const SINCE_PARAMETERS = Object.keys(SinceParamsSchema.shape).filter((name) => name !== "date");

/** GET /api/reviews/search?{raw}: decoding and validation problems are reported together. */
export const searchFromQuery = (index: SearchIndex, raw: string): PreparedSearch =>
  prepareFromQuery(raw, SEARCH_PARAMETERS, (args) => prepareSearch(index, args));

/** GET /api/reviews/since/{date}?{raw}: the same rules as search for its limit and cursor. */
export const sinceFromQuery = (index: SearchIndex, date: string, raw: string): PreparedSince =>
  prepareFromQuery(raw, SINCE_PARAMETERS, (args) => prepareSince(index, args), { date });
