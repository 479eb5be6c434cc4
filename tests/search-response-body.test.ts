/**
 * The search and since bodies as sent (the page's stored review bytes joined per response) are the
 * JSON of the response objects the MCP tools return, byte for byte, for full, partial and empty pages.
 */

import { searchFromQuery, sinceFromQuery } from "@riverbend/shared/search/read-queries.ts";
import { searchBody, sinceBody } from "@riverbend/shared/search/response-body.ts";
import { reviewsSince, runSince } from "@riverbend/shared/search/reviews-since.ts";
import { runSearch, searchResponse } from "@riverbend/shared/search/search-reviews.ts";
import { describe, expect, it } from "vitest";
import { index } from "./support/search-fixture.ts";

const text = (body: { chunks: Buffer[]; length: number }) => {
  const joined = Buffer.concat(body.chunks);
  expect(joined.length).toBe(body.length);
  return joined.toString("utf8");
};

describe("search and since bodies", () => {
  it.each([
    "limit=1",
    "limit=5",
    "limit=100",
    "sort=oldest&limit=3",
    "query=cafe",
    "rating=1&min_rating=1",
    "since=2099-01-01",
  ])("sends search?%s as the JSON of its response object", (query) => {
    const page = runSearch(index, searchFromQuery(index, query));
    expect(text(searchBody(index, page))).toBe(JSON.stringify(searchResponse(index, page)));
  });

  it.each([
    { date: "2000-01-01", query: "", args: {} },
    { date: "2000-01-01", query: "limit=2", args: { limit: 2 } },
    { date: "2099-01-01", query: "", args: {} },
  ])("sends since/$date?$query as the JSON of its response object", ({ date, query, args }) => {
    const page = runSince(index, sinceFromQuery(index, date, query));
    expect(text(sinceBody(index, page))).toBe(JSON.stringify(reviewsSince(index, { date, ...args })));
  });
});
