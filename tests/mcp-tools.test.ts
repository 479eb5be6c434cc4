/**
 * The MCP server's five tools at POST /mcp, in process, through the SDK's own client: what
 * tools/list publishes, each tool's answers checked against its own output schema, and how invalid
 * arguments and unknown tools are answered.
 */
import { type CallToolResult, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { describe, expect, it } from "vitest";
import {
  callTool,
  client,
  document,
  idsOf,
  inputValidators,
  newestFirst,
  reviews,
  server,
  setupInProcessMcp,
  store,
  TOOL_NAMES,
  tools,
} from "./support/mcp-inprocess.ts";

setupInProcessMcp();

/** Calls a tool expecting a tool-level error; returns its message. */
async function toolError(name: string, args: unknown): Promise<string> {
  const result = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const [first] = result.content;
  expect(first?.type).toBe("text");
  return first?.type === "text" ? first.text : "";
}

describe("tools through the SDK client", () => {
  it("lists exactly the five tools, each with title, description, closed input schema, output schema and hints", () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/\S/);
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.annotations, tool.name).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false,
      });
      // Schemas are self-contained: many clients cannot resolve references.
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain("$ref");
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toContain("$ref");
      // The published input schema itself refuses an unknown argument.
      expect(inputValidators.get(tool.name)?.({ no_such_argument: 1 }), tool.name).toBe(false);
    }
    expect(inputValidators.get("search_reviews")?.({ rating: 5, limit: 3, sort: "oldest" })).toBe(true);
    expect(inputValidators.get("get_review")?.({})).toBe(false);
  });

  it("get_business returns the business and its aggregate rating", async () => {
    const result = await callTool("get_business", {});
    expect(result).toEqual({ business: document.business, aggregate_rating: document.aggregate_rating });
    // No arguments at all is the same call.
    const bare = (await client.callTool({ name: "get_business" })) as CallToolResult;
    expect(bare.structuredContent).toEqual(result);
  });

  it("search_reviews filters, sorts and pages with next_cursor", async () => {
    const first = await callTool("search_reviews", { mentions_service: "drain-cleaning", limit: 7 });
    const matching = reviews.filter((r) => r.services.includes("drain-cleaning"));
    expect(first.total).toBe(matching.length);
    expect(first.count).toBe(7);
    expect(first.limit).toBe(7);
    const page1 = first.reviews as Review[];
    for (const review of page1) expect(review.services).toContain("drain-cleaning");
    expect([...page1].sort(newestFirst).map((r) => r.date)).toEqual(page1.map((r) => r.date));
    expect(typeof first.next_cursor).toBe("string");
    const second = await callTool("search_reviews", {
      mentions_service: "drain-cleaning",
      limit: 7,
      cursor: first.next_cursor,
    });
    const page2 = second.reviews as Review[];
    expect(page2).toHaveLength(7);
    expect(idsOf(page2).some((id) => idsOf(page1).includes(id))).toBe(false);

    const fives = await callTool("search_reviews", { rating: 5, sort: "oldest", limit: 100 });
    expect(fives.total).toBe(reviews.filter((r) => r.rating === 5).length);
    for (const review of fives.reviews as Review[]) expect(review.rating).toBe(5);
  });

  it("search_reviews filters by area and insights topic and counts facets, as the HTTP search does", async () => {
    const topic = [...store.current.index.facets.topic.keys()][0] as string;
    const args = { area: "sacramento", topic, facets: true, limit: 100 };
    const result = await callTool("search_reviews", args);
    const page = result.reviews as Review[];
    expect(page.length).toBeGreaterThan(0);
    for (const review of page) expect(review.service_area).toBe("sacramento");
    const query = `area=sacramento&topic=${topic}&facets=true&limit=100`;
    const http = await (await fetch(`${server.base}/api/reviews/search?${query}`)).json();
    expect(result).toEqual(http);
    expect((result.facets as Record<string, Record<string, number>>).area?.sacramento).toBe(result.total);
    expect(await toolError("search_reviews", { area: "sacramentoo" })).toMatch(/did you mean "sacramento"/);
    expect(await toolError("search_reviews", { topic: "no-such-topic" })).toMatch(/topic: .*valid values/);
  });

  it("get_review returns one review exactly as published", async () => {
    for (const review of [reviews[0], reviews[reviews.length - 1], reviews[100]] as Review[]) {
      expect(await callTool("get_review", { id: review.id })).toEqual({ review });
    }
  });

  it("get_reviews_since returns newest first, up to limit, with the total", async () => {
    const since = reviews.filter((r) => r.date >= "2026-01-01");
    const result = await callTool("get_reviews_since", { date: "2026-01-01", limit: 3 });
    expect(result.since).toBe("2026-01-01");
    expect(result.total).toBe(since.length);
    expect(result.count).toBe(3);
    expect(idsOf(result.reviews as Review[])).toEqual(idsOf([...since].sort(newestFirst).slice(0, 3)));
    const all = await callTool("get_reviews_since", { date: "2026-01-01" });
    expect(all.count).toBe(Math.min(100, since.length));
    const next = await callTool("get_reviews_since", { date: "2026-01-01", limit: 3, cursor: result.next_cursor });
    expect(idsOf(next.reviews as Review[])).toEqual(idsOf([...since].sort(newestFirst).slice(3, 6)));
  });

  it("get_insights returns the published insights, narrowed as asked", async () => {
    const insights = (await (await fetch(`${server.base}/insights.json`)).json()) as Record<string, unknown> & {
      entities: { technicians: { name: string }[]; services: { id: string }[]; service_areas: unknown[] };
    };
    const whole = await callTool("get_insights", {});
    expect(whole.as_of).toBe(insights.as_of);
    expect(whole.review_count).toBe(insights.review_count);
    expect((whole.sections as Record<string, unknown>).entities).toEqual(insights.entities);

    const dana = await callTool("get_insights", { section: "entities", technician: "dana" });
    const entities = (dana.sections as { entities: typeof insights.entities }).entities;
    expect(entities.technicians.map((t) => t.name)).toEqual(["Dana W."]);
    expect(entities.services).toEqual(insights.entities.services);

    const drains = await callTool("get_insights", { service: "DRAIN-CLEANING" });
    const drainEntities = (drains.sections as { entities: typeof insights.entities }).entities;
    expect(drainEntities.services.map((s) => s.id)).toEqual(["drain-cleaning"]);
  });

  it("answers invalid arguments with a tool result (isError) that names the argument", async () => {
    expect(await toolError("search_reviews", { rating: 7 })).toMatch(/rating: must be a whole number from 1 to 5/);
    expect(await toolError("search_reviews", { min_ratting: 3 })).toMatch(/min_ratting: is not a parameter/);
    expect(await toolError("search_reviews", { limit: "ten" })).toMatch(/limit:/);
    expect(await toolError("search_reviews", { since: "2025-03-01", until: "2025-01-01" })).toMatch(/since:/);
    expect(await toolError("get_review", {})).toMatch(/id:/);
    expect(await toolError("get_review", { id: "1999-01-01-nobody" })).toMatch(/id: no review has the id/);
    expect(await toolError("get_reviews_since", { date: "2025-02-30" })).toMatch(/date: must be a real calendar date/);
    expect(await toolError("get_reviews_since", { date: "2025-01-01", limit: 0 })).toMatch(/limit:/);
    expect(await toolError("get_business", { verbose: true })).toMatch(/verbose: is not a parameter/);
    expect(await toolError("get_insights", { section: "gossip" })).toMatch(/section: must be one of/);
  });

  it("refuses a technician or service that does not exist, as the HTTP search does", async () => {
    expect(await toolError("search_reviews", { mentions_technician: "luiz" })).toMatch(
      /mentions_technician: "luiz" is not known; did you mean "Luis [A-Z]\."\?/,
    );
    expect(await toolError("search_reviews", { mentions_service: "drain" })).toMatch(
      /mentions_service: .*valid values/,
    );
    expect(await toolError("get_insights", { technician: "luiz" })).toMatch(/technician: .*did you mean/);
    expect(await toolError("get_reviews_since", { date: "2025-01-01", cursor: "nope" })).toMatch(/cursor:/);
  });

  it("answers an unknown tool with a JSON-RPC error, not a tool result", async () => {
    const error = await client.callTool({ name: "delete_everything", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain("delete_everything");
  });
});
