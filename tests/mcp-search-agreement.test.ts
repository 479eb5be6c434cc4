/**
 * A property test, in process: the MCP tool search_reviews and GET /api/reviews/search give the same
 * answers (ids, totals, cursors, rejections) for the same random parameters.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { client, document, idsOf, server, setupInProcessMcp } from "./support/mcp-inprocess.ts";

setupInProcessMcp();

describe("search_reviews and GET /api/reviews/search agree", () => {
  const technicians = () => [
    ...document.business.technicians.flatMap((t) => [t.name, t.id, t.name.split(" ")[0] as string]),
    "DANA w.",
    "nobody",
  ];
  const services = () => [...document.business.services.map((s) => s.id), "DRAIN-CLEANING", "no-such-service"];
  const day = fc
    .date({ min: new Date("2022-10-01T00:00:00Z"), max: new Date("2027-03-01T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

  const toQuery = (params: Record<string, unknown>) =>
    new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

  async function viaHttp(params: Record<string, unknown>) {
    const response = await fetch(`${server.base}/api/reviews/search?${toQuery(params)}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function viaTool(params: Record<string, unknown>) {
    return (await client.callTool({ name: "search_reviews", arguments: params })) as CallToolResult;
  }

  /** Compares one parameter set; returns "rejected", the next cursor, or the number of matches. */
  async function compare(params: Record<string, unknown>): Promise<"rejected" | string | number> {
    const [http, tool] = await Promise.all([viaHttp(params), viaTool(params)]);
    const label = JSON.stringify(params);
    if (http.status !== 200) {
      expect(http.status, label).toBe(400);
      expect(tool.isError, label).toBe(true);
      const text = tool.content[0]?.type === "text" ? tool.content[0].text : "";
      for (const issue of http.body.issues as { path: string }[]) expect(text, label).toContain(`${issue.path}:`);
      return "rejected";
    }
    expect(tool.isError, label).toBeFalsy();
    const structured = tool.structuredContent as Record<string, unknown>;
    expect(structured.total, label).toBe(http.body.total);
    expect(structured.count, label).toBe(http.body.count);
    expect(structured.next_cursor, label).toBe(http.body.next_cursor);
    expect(idsOf(structured.reviews as Review[]), label).toEqual(idsOf(http.body.reviews as Review[]));
    return (structured.next_cursor as string | null) ?? (structured.total as number);
  }

  it("returns the same ids, totals and cursors for the same random parameters (50 runs)", async () => {
    // Each filter is left out most of the time, so that many parameter sets still match reviews.
    const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
    const params = fc
      .record({
        rating: sometimes(
          fc.oneof(
            { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 4 },
            { arbitrary: fc.constantFrom(0, 6), weight: 1 },
          ),
        ),
        min_rating: sometimes(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.double({ min: 1, max: 5, noNaN: true }))),
        since: sometimes(day),
        until: sometimes(day),
        query: sometimes(
          fc.oneof(
            fc.constantFrom("water", "heater", "DRAIN", "Dana", "cafe", "café", "leak", "a b", "100%", "x&y=z"),
            fc.string({ minLength: 1, maxLength: 8, unit: "grapheme" }),
          ),
        ),
        mentions_technician: sometimes(fc.constantFrom(...technicians())),
        mentions_service: sometimes(fc.constantFrom(...services())),
        limit: sometimes(fc.integer({ min: 1, max: 100 })),
        sort: sometimes(fc.constantFrom("newest", "oldest", "highest", "lowest")),
      })
      .map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)));
    const seen = { matched: 0, paged: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const outcome = await compare(p);
        if (outcome === "rejected") seen.rejected++;
        else if (typeof outcome === "number") seen.matched += outcome > 0 ? 1 : 0;
        else {
          seen.matched++;
          seen.paged++;
          await compare({ ...p, cursor: outcome });
        }
      }),
      {
        numRuns: 50,
        // Always among the runs: a plain paged listing, a technician by first name, an invalid rating.
        examples: [[{ limit: 5 }], [{ mentions_technician: "dana", sort: "highest", limit: 3 }], [{ rating: 0 }]],
      },
    );
    // The generator must exercise real matches, paging and rejections, not only empty results.
    expect(seen.matched, JSON.stringify(seen)).toBeGreaterThanOrEqual(3);
    expect(seen.paged, JSON.stringify(seen)).toBeGreaterThanOrEqual(2);
    expect(seen.rejected, JSON.stringify(seen)).toBeGreaterThanOrEqual(1);
  });
});
