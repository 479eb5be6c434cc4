import { readFileSync } from "node:fs";
import path from "node:path";
import { TOOLS, type ToolContext } from "@riverbend/shared/mcp-catalog/tool-catalog.ts";
import type { InsightsDocument } from "@riverbend/shared/schemas/insights.ts";
import type { ReviewsDocument } from "@riverbend/shared/schemas/reviews-document.ts";
import { InsightsResultSchema } from "@riverbend/shared/schemas/tools.ts";
import { buildSearchIndex } from "@riverbend/shared/search/search-index.ts";
import { describe, expect, inject, it } from "vitest";
import { aggregateRating } from "../src/reviews-document/aggregate.ts";

const dist = inject("sampleDist");
const insights = JSON.parse(readFileSync(path.join(dist, "insights.json"), "utf8")) as InsightsDocument;
const reviews = JSON.parse(readFileSync(path.join(dist, "reviews.json"), "utf8")) as ReviewsDocument;
const index = buildSearchIndex(reviews, "test");
const context: ToolContext = {
  index,
  business: reviews.business,
  aggregate: aggregateRating(reviews.reviews),
  insights,
};
const tool = TOOLS.find((t) => t.name === "get_insights");
const call = (args: unknown) => InsightsResultSchema.parse(tool?.run(context, args));

describe("get_insights over the sample build", () => {
  it("returns every section of the published document", () => {
    const whole = call({});
    expect(Object.keys(whole.sections)).toEqual(["aspects", "entities", "topics", "faq", "summary"]);
    expect(whole.sections.faq).toEqual(insights.faq);
    expect(whole.disclosure).toBe(insights.disclosure);
  });

  it("narrows to one aspect, in the aspects section and in the entity breakdowns", () => {
    const price = call({ aspect: "price" });
    expect((price.sections.aspects as { id: string }[]).map((a) => a.id)).toEqual(["price"]);
    const entities = price.sections.entities as InsightsDocument["entities"];
    for (const service of entities.services) expect(service.aspects?.map((a) => a.id)).toEqual(["price"]);
  });

  it("rejects an aspect outside the taxonomy, naming the argument", () => {
    expect(() => call({ aspect: "vibes" })).toThrow(/must be one of punctuality/);
  });
});
