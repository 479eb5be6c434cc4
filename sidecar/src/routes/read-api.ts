import { searchReviewsFromQuery } from "../../../src/search/query-string.ts";
import { reviewsSince } from "../../../src/search/reviews-since.ts";
import type { LoadedBundle } from "../bundle/loaded-bundle.ts";
import { type JsonBody, jsonBody } from "../http/send-json.ts";

/**
 * What the search and since routes answer, shared by the Express routes and the fast path in front
 * of Express, so both give the same bytes, validators and CORS headers.
 */
export const READ_METHODS = ["GET", "HEAD", "OPTIONS"];
export const READ_CACHE_CONTROL = "public, max-age=60, must-revalidate";
export const READ_CORS = {
  origin: "*",
  methods: READ_METHODS,
  allowedHeaders: ["If-None-Match", "If-Modified-Since", "Content-Type"],
  exposedHeaders: ["ETag", "Last-Modified"],
  maxAge: 86_400,
};
/** The headers `cors` adds to a simple (non-preflight) request with READ_CORS. */
export const READ_CORS_HEADERS = {
  "Access-Control-Allow-Origin": READ_CORS.origin,
  "Access-Control-Expose-Headers": READ_CORS.exposedHeaders.join(","),
};

/** The search response for a raw query string (without "?"); throws InvalidRequestError. */
export function searchAnswer(loaded: LoadedBundle, queryString: string): JsonBody {
  return loaded.searchCache.memo(queryString, {
    context: () => jsonBody(searchReviewsFromQuery(loaded.index, new URLSearchParams(queryString))),
  });
}

/** The since response for a decoded date segment; throws InvalidRequestError. */
export function sinceAnswer(loaded: LoadedBundle, date: string): JsonBody {
  return loaded.sinceCache.memo(date, { context: () => jsonBody(reviewsSince(loaded.index, date)) });
}
