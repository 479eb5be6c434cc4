/**
 * The MCP server's resources, the one-review template, prompts, completions and logging at POST
 * /mcp, in process, through the SDK's own client.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { describe, expect, it } from "vitest";
import {
  callTool,
  client,
  DOCUMENTS,
  document,
  idsOf,
  newestFirst,
  reviews,
  server,
  setupInProcessMcp,
  TEMPLATE,
} from "./support/mcp-inprocess.ts";

setupInProcessMcp();

describe("resources through the SDK client", () => {
  it("lists the four published documents under their public URLs with their media types", async () => {
    const { resources } = await client.listResources();
    expect(resources.map(({ uri, mimeType }) => ({ uri, mimeType }))).toEqual(
      DOCUMENTS.map(({ uri, mimeType }) => ({ uri, mimeType })),
    );
    for (const resource of resources) {
      expect(resource.name, resource.uri).toMatch(/\S/);
      expect(resource.title, resource.uri).toMatch(/\S/);
    }
  });

  it("reads each document with exactly the text served at its public path", async () => {
    for (const doc of DOCUMENTS) {
      const { contents } = await client.readResource({ uri: doc.uri });
      const published = await (await fetch(`${server.base}${doc.path}`)).text();
      expect(contents, doc.uri).toEqual([{ uri: doc.uri, mimeType: doc.mimeType, text: published }]);
    }
  });

  it("offers the one-review template and reads reviews through it", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toHaveLength(1);
    expect(resourceTemplates[0]).toMatchObject({ uriTemplate: TEMPLATE, mimeType: "application/json" });
    for (const review of reviews.slice(0, 5)) {
      const uri = `reviews://review/${review.id}`;
      const { contents } = await client.readResource({ uri });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri, mimeType: "application/json" });
      const [content] = contents;
      expect(content && "text" in content).toBe(true);
      expect(JSON.parse(content && "text" in content ? content.text : "null")).toEqual(review);
    }
  });

  // SDK v2 answers resource-not-found with -32602 and the URI in error.data in every revision (the
  // 2026-07-28 code; 2025 clients are told to accept it beside the older -32002).
  it("answers a review id that does not exist with resource-not-found (-32602 naming the URI)", async () => {
    const error = await client.readResource({ uri: "reviews://review/1999-01-01-nobody" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).data).toEqual({ uri: "reviews://review/1999-01-01-nobody" });
  });
});

/** Review ids a prompt lists, in order (each line starts with `- id <id> |`). */
function listedIds(text: string): string[] {
  return [...text.matchAll(/^- id (\S+) \|/gm)].map((m) => m[1] as string);
}

async function promptText(name: string, args: Record<string, string> = {}): Promise<string> {
  const prompt = await client.getPrompt({ name, arguments: args });
  expect(prompt.messages).toHaveLength(1);
  const [message] = prompt.messages;
  expect(message?.role).toBe("user");
  expect(message?.content.type).toBe("text");
  return message?.content.type === "text" ? message.content.text : "";
}

describe("prompts through the SDK client", () => {
  it("lists summarize_reviews (all arguments optional) and answer_customer_question (question required)", async () => {
    const { prompts } = await client.listPrompts();
    const byName = new Map(prompts.map((p) => [p.name, p]));
    expect([...byName.keys()].sort()).toEqual(["answer_customer_question", "summarize_reviews"]);
    const summarize = byName.get("summarize_reviews");
    expect(summarize?.arguments?.map((a) => [a.name, a.required ?? false])).toEqual([
      ["technician", false],
      ["service", false],
      ["since", false],
    ]);
    expect(byName.get("answer_customer_question")?.arguments?.map((a) => [a.name, a.required])).toEqual([
      ["question", true],
    ]);
  });

  it("summarize_reviews embeds the newest reviews with their ids and tells the model to cite them", async () => {
    const text = await promptText("summarize_reviews");
    expect(text).toContain("Cite the review ids");
    expect(text).toContain(document.business.name);
    expect(listedIds(text)).toEqual(idsOf([...reviews].sort(newestFirst).slice(0, 100)));
  });

  it("summarize_reviews narrows by technician, service and since like search_reviews does", async () => {
    const args = { technician: "Dana W.", service: "repiping", since: "2024-01-01" };
    const text = await promptText("summarize_reviews", args);
    expect(text).toContain("Cite the review ids");
    expect(text).toContain("technician Dana W., service repiping, since 2024-01-01");
    const search = await callTool("search_reviews", {
      mentions_technician: args.technician,
      mentions_service: args.service,
      since: args.since,
      limit: 100,
    });
    const ids = listedIds(text);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(idsOf(search.reviews as Review[]));
    for (const id of ids) {
      const review = reviews.find((r) => r.id === id);
      expect(review?.technicians).toContain("Dana W.");
      expect(review?.services).toContain("repiping");
      expect(review && review.date >= "2024-01-01").toBe(true);
    }
  });

  it("answer_customer_question embeds the business facts and relevant reviews and asks for cited ids", async () => {
    const question = "Can you fix a water heater before Thanksgiving?";
    const text = await promptText("answer_customer_question", { question });
    expect(text).toContain(question);
    expect(text).toContain("Cite the review ids");
    expect(text).toContain(document.business.telephone);
    const ids = listedIds(text);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThanOrEqual(30);
    for (const id of ids) expect(reviews.some((r) => r.id === id)).toBe(true);
  });

  it("refuses answer_customer_question without a question", async () => {
    const error = await client.getPrompt({ name: "answer_customer_question", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });
});

describe("completions and logging through the SDK client", () => {
  const complete = async (
    ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string },
    name: string,
    value: string,
  ) => (await client.complete({ ref, argument: { name, value } })).completion;
  const summarize = { type: "ref/prompt" as const, name: "summarize_reviews" };
  const template = { type: "ref/resource" as const, uri: TEMPLATE };

  it("completes technician names and service ids of summarize_reviews, case-insensitively", async () => {
    const names = document.business.technicians.map((t) => t.name);
    expect((await complete(summarize, "technician", "ch")).values).toEqual(["Chris M.", "Chris A."]);
    expect((await complete(summarize, "technician", "")).values).toEqual(names);
    expect((await complete(summarize, "technician", "zz")).values).toEqual([]);
    expect((await complete(summarize, "service", "WATER")).values).toEqual([
      "water-heater-repair",
      "water-heater-installation",
    ]);
  });

  it("completes the review id of the template", async () => {
    const values = (await complete(template, "id", "2023-01-")).values;
    const expected = idsOf(reviews).filter((id) => id.startsWith("2023-01-"));
    expect(values.length).toBeGreaterThan(0);
    expect([...values].sort()).toEqual([...expected].sort());
    expect((await complete(template, "id", "1999")).values).toEqual([]);
    const all = await complete(template, "id", "");
    expect(all.values).toHaveLength(100);
  });

  // A regression test: the `id` completer once sliced its matches to 100 before the SDK counted them,
  // so 272 matches were reported as total 100, hasMore false; the SDK caps the values itself.
  it("reports that more review ids match than the 100 it returns (hasMore/total)", async () => {
    const all = await complete(template, "id", "");
    expect(all.values).toHaveLength(100);
    expect(all.hasMore).toBe(true);
    expect(all.total).toBe(reviews.length);
  });

  it("accepts logging/setLevel", async () => {
    await expect(client.setLoggingLevel("debug")).resolves.toEqual({});
    await expect(client.setLoggingLevel("error")).resolves.toEqual({});
  });
});
