import {
  type CacheHint,
  type CallToolResult,
  completable,
  McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { PROMPTS, SERVER_INFO, SERVER_INSTRUCTIONS, TOOL_REGISTRATIONS } from "../../../src/mcp/listing.ts";
import { answerQuestionPrompt, summarizePrompt } from "../../../src/mcp/prompts.ts";
import { MCP_CACHE_TTL_MS, PUBLISHED_DOCUMENTS, REVIEW_TEMPLATE } from "../../../src/mcp/protocol.ts";
import type { ToolContext, ToolDefinition } from "../../../src/mcp/tool-catalog.ts";
import { IsoDateSchema } from "../../../src/schemas/common.ts";
import { InvalidRequestError } from "../../../src/search/errors.ts";
import type { SiteUrls } from "../../../src/site/urls.ts";

export interface McpContext extends ToolContext {
  urls: SiteUrls;
  /** Text of a published document, by URL path, for resources/read. */
  readDocument(path: string): string | undefined;
}

/*
 * Everything the server lists or reads is the same for every caller and changes only with a new
 * build (which subscribers hear of on subscriptions/listen): cacheable by anyone for a while.
 */
const PUBLIC: CacheHint = { ttlMs: MCP_CACHE_TTL_MS, cacheScope: "public" };

/** A tool's result; invalid arguments the tool itself finds (a cursor, an unknown id) are `isError` results. */
function runTool(context: McpContext, tool: ToolDefinition, args: unknown): CallToolResult {
  try {
    const structured = tool.run(context, args);
    return { structuredContent: structured, content: [{ type: "text", text: JSON.stringify(structured) }] };
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    const text = `Invalid arguments for ${tool.name}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`;
    return { isError: true, content: [{ type: "text", text }] };
  }
}

/**
 * A fresh MCP server over one loaded build, for one request of either era. Tools are registered in
 * catalog order, which is the order tools/list gives.
 */
export function buildMcpServer(context: McpContext, era: "modern" | "legacy"): McpServer {
  const server = new McpServer(SERVER_INFO, {
    // The lists never change while the process runs (a new build changes documents, not lists), so
    // no list_changed is promised. Documents can be watched on a 2026-07-28 subscriptions/listen
    // stream; 2025 sessions have no stream to carry an update, so no subscribe is offered there.
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false, ...(era === "modern" ? { subscribe: true } : {}) },
      prompts: { listChanged: false },
      logging: {},
    },
    instructions: SERVER_INSTRUCTIONS,
    cacheHints: {
      "tools/list": PUBLIC,
      "prompts/list": PUBLIC,
      "resources/list": PUBLIC,
      "resources/templates/list": PUBLIC,
      "resources/read": PUBLIC,
      "server/discover": PUBLIC,
    },
  });
  for (const { tool, input, output, annotations } of TOOL_REGISTRATIONS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: input, outputSchema: output, annotations },
      (args) => runTool(context, tool, args),
    );
  }

  for (const doc of PUBLISHED_DOCUMENTS) {
    const uri = `${context.urls.base}${doc.path}`;
    server.registerResource(doc.name, uri, { title: doc.title, mimeType: doc.mimeType }, () => {
      const text = context.readDocument(doc.path);
      if (text === undefined) throw new ResourceNotFoundError(uri);
      return { contents: [{ uri, mimeType: doc.mimeType, text }] };
    });
  }

  const ids = () => context.index.reviews.map((r) => r.id);
  server.registerResource(
    "review",
    new ResourceTemplate(REVIEW_TEMPLATE, {
      list: undefined,
      // The SDK caps the list at 100 and reports total and hasMore itself.
      complete: { id: (value) => ids().filter((id) => id.startsWith(value)) },
    }),
    { title: "One review", description: "One review as JSON, by id.", mimeType: "application/json" },
    (uri, variables) => {
      const position = context.index.byId.get(String(variables.id));
      if (position === undefined) throw new ResourceNotFoundError(uri.href);
      return {
        contents: [
          { uri: uri.href, mimeType: "application/json", text: JSON.stringify(context.index.reviews[position]) },
        ],
      };
    },
  );

  const startsWith = (values: string[]) => (value: string | undefined) =>
    values.filter((v) => v.toLowerCase().startsWith((value ?? "").toLowerCase()));
  const summarize = PROMPTS.summarize_reviews;
  server.registerPrompt(
    "summarize_reviews",
    {
      title: summarize.title,
      description: summarize.description,
      argsSchema: z.object({
        // describe() goes inside completable(): it returns a new schema that would lose the completer.
        technician: completable(
          z.string().describe(summarize.arguments.technician.description),
          startsWith(context.business.technicians.map((t) => t.name)),
        ).optional(),
        service: completable(
          z.string().describe(summarize.arguments.service.description),
          startsWith(context.business.services.map((s) => s.id)),
        ).optional(),
        since: IsoDateSchema.optional().describe(summarize.arguments.since.description),
      }),
    },
    (args) => ({
      messages: [{ role: "user", content: { type: "text", text: summarizePrompt(context, args) } }],
    }),
  );
  const answer = PROMPTS.answer_customer_question;
  server.registerPrompt(
    "answer_customer_question",
    {
      title: answer.title,
      description: answer.description,
      argsSchema: z.object({
        question: z.string().min(1).max(500).describe(answer.arguments.question.description),
      }),
    },
    ({ question }) => ({
      messages: [{ role: "user", content: { type: "text", text: answerQuestionPrompt(context, question) } }],
    }),
  );
  return server;
}
