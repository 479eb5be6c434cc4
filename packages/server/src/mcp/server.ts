import {
  type CacheHint,
  type CallToolResult,
  completable,
  type GetPromptResult,
  McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
  type Variables,
} from "@modelcontextprotocol/server";
import {
  PROMPTS,
  SERVER_INFO,
  SERVER_INSTRUCTIONS,
  TOOL_REGISTRATIONS,
} from "@riverbend/shared/mcp-catalog/listing.ts";
import { answerQuestionPrompt, summarizePrompt } from "@riverbend/shared/mcp-catalog/prompts.ts";
import { MCP_CACHE_TTL_MS, MCP_RESOURCE_DOCUMENTS, REVIEW_TEMPLATE } from "@riverbend/shared/mcp-catalog/protocol.ts";
import type { ToolContext, ToolDefinition } from "@riverbend/shared/mcp-catalog/tool-catalog.ts";
import type { Business } from "@riverbend/shared/schemas/business.ts";
import { InvalidRequestError } from "@riverbend/shared/search/errors.ts";
import type { SearchIndex } from "@riverbend/shared/search/search-index.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { LRUCache } from "lru-cache";
import { z } from "zod";

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

const ANSWER_ARGS = z.object(PROMPTS.answer_customer_question.args);

const startsWith = (values: string[]) => (value: string | undefined) =>
  values.filter((v) => v.toLowerCase().startsWith((value ?? "").toLowerCase()));

/** summarize_reviews' arguments, completing one build's technicians and services. */
function summarizeArgs(business: Business) {
  const { args } = PROMPTS.summarize_reviews;
  return z.object({
    // completable() marks the schema it is given, for good: each build marks its own copy (clone()
    // keeps the description), and marks the inner schema, since optional() would return a copy.
    technician: completable(
      args.technician.unwrap().clone(),
      startsWith(business.technicians.map((t) => t.name)),
    ).optional(),
    service: completable(args.service.unwrap().clone(), startsWith(business.services.map((s) => s.id))).optional(),
    since: args.since,
  });
}

/**
 * A tool's result; invalid arguments the tool itself finds (a cursor, an unknown id) are `isError`
 * results. Results are kept per build under the tool's name and its validated arguments as JSON
 * (the schemas' key order, so equal arguments give equal keys); error results and arguments longer
 * than MAX_CACHED_ARGUMENTS are answered but not kept, so what a client sends bounds no memory.
 */
function runTool(context: McpContext, tool: ToolDefinition, args: unknown): CallToolResult {
  const results = toolResults(context.index);
  const key = `${tool.name}\u0000${JSON.stringify(args)}`;
  const kept = results.get(key);
  if (kept) return kept;
  const result = computeTool(context, tool, args);
  if (!result.isError && key.length <= MAX_CACHED_ARGUMENTS) results.set(key, result);
  return result;
}

/** Longest tool name and arguments (as JSON) whose result is kept; valid arguments are far shorter. */
export const MAX_CACHED_ARGUMENTS = 2048;

// A build's tools are pure functions of their arguments: results are kept per build, as the HTTP
// search keeps its answers (bench:mcp's tool-call target), and dropped with the build. The bound
// counts keys and texts in UTF-16 code units (2 bytes each).
const resultsByBuild = new WeakMap<SearchIndex, LRUCache<string, CallToolResult>>();

/** The tool results kept for one build. */
export function toolResults(index: SearchIndex): LRUCache<string, CallToolResult> {
  let results = resultsByBuild.get(index);
  if (!results) {
    results = new LRUCache<string, CallToolResult>({
      max: 1000,
      maxSize: 16 * 1024 * 1024,
      sizeCalculation: (result, key) =>
        key.length + (result.content[0]?.type === "text" ? result.content[0].text.length : 0) + 64,
    });
    resultsByBuild.set(index, results);
  }
  return results;
}

function computeTool(context: McpContext, tool: ToolDefinition, args: unknown): CallToolResult {
  try {
    const structured = tool.run(context, args);
    return { structuredContent: structured, content: [{ type: "text", text: JSON.stringify(structured) }] };
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    const text = `Invalid arguments for ${tool.name}: ${error.message}`;
    return { isError: true, content: [{ type: "text", text }] };
  }
}

const CACHE_HINTS = {
  "tools/list": PUBLIC,
  "prompts/list": PUBLIC,
  "resources/list": PUBLIC,
  "resources/templates/list": PUBLIC,
  "resources/read": PUBLIC,
  "server/discover": PUBLIC,
};

/*
 * The lists never change while the process runs (a new build changes documents, not lists), so no
 * list_changed is promised. Documents can be watched on a 2026-07-28 subscriptions/listen stream;
 * 2025 sessions have no stream to carry an update, so no subscribe is offered there.
 */
const SERVER_OPTIONS = {
  modern: {
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false, subscribe: true },
      prompts: { listChanged: false },
      logging: {},
    },
    instructions: SERVER_INSTRUCTIONS,
    cacheHints: CACHE_HINTS,
  },
  legacy: {
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
      logging: {},
    },
    instructions: SERVER_INSTRUCTIONS,
    cacheHints: CACHE_HINTS,
  },
};

type ReadResult = { contents: { uri: string; mimeType: string; text: string }[] };
type SummarizeArgs = { technician?: string | undefined; service?: string | undefined; since?: string | undefined };

const userPrompt = (text: string): GetPromptResult => ({
  messages: [{ role: "user", content: { type: "text", text } }],
});

/** What a server over one build registers: its callbacks, schemas and template, made once per build. */
function prepareSurface(context: McpContext) {
  const tools = TOOL_REGISTRATIONS.map(({ tool, input, output, annotations }) => ({
    name: tool.name,
    config: { title: tool.title, description: tool.description, inputSchema: input, outputSchema: output, annotations },
    callback: (args: unknown) => runTool(context, tool, args),
  }));
  const documents = MCP_RESOURCE_DOCUMENTS.map((doc) => {
    const uri = `${context.urls.base}${doc.path}`;
    const read = (): ReadResult => {
      const text = context.readDocument(doc.path);
      if (text === undefined) throw new ResourceNotFoundError(uri);
      return { contents: [{ uri, mimeType: doc.mimeType, text }] };
    };
    return { name: doc.name, uri, config: { title: doc.title, mimeType: doc.mimeType }, read };
  });
  const ids = () => Array.from({ length: context.index.count }, (_, position) => context.index.idAt(position));
  const template = new ResourceTemplate(REVIEW_TEMPLATE, {
    list: undefined,
    // The SDK caps the list at 100 and reports total and hasMore itself.
    complete: { id: (value) => ids().filter((id) => id.startsWith(value)) },
  });
  const readReview = (uri: URL, variables: Variables): ReadResult => {
    const position = context.index.positionOf(String(variables.id));
    if (position === undefined) throw new ResourceNotFoundError(uri.href);
    return {
      contents: [{ uri: uri.href, mimeType: "application/json", text: context.index.json(position).toString("utf8") }],
    };
  };
  return {
    tools,
    documents,
    review: { template, read: readReview },
    summarize: {
      schema: summarizeArgs(context.business),
      render: (args: SummarizeArgs) => userPrompt(summarizePrompt(context, args)),
    },
    answer: ({ question }: { question: string }) => userPrompt(answerQuestionPrompt(context, question)),
  };
}

// The SDK builds a server per request; what it registers (callbacks, zod schemas, the URI template)
// is made once per build and dropped with it (bench:mcp's tool-call target).
type Surface = ReturnType<typeof prepareSurface>;
const surfaces = new WeakMap<McpContext, Surface>();
function surfaceOf(context: McpContext): Surface {
  let surface = surfaces.get(context);
  if (!surface) {
    surface = prepareSurface(context);
    surfaces.set(context, surface);
  }
  return surface;
}

/**
 * A fresh MCP server over one loaded build, for one request of either era. Tools are registered in
 * catalog order, which is the order tools/list gives.
 */
export function buildMcpServer(context: McpContext, era: "modern" | "legacy"): McpServer {
  const surface = surfaceOf(context);
  const server = new McpServer(SERVER_INFO, SERVER_OPTIONS[era]);
  for (const tool of surface.tools) server.registerTool(tool.name, tool.config, tool.callback);
  for (const doc of surface.documents) server.registerResource(doc.name, doc.uri, doc.config, doc.read);
  server.registerResource(
    "review",
    surface.review.template,
    { title: "One review", description: "One review as JSON, by id.", mimeType: "application/json" },
    surface.review.read,
  );
  server.registerPrompt(
    "summarize_reviews",
    {
      title: PROMPTS.summarize_reviews.title,
      description: PROMPTS.summarize_reviews.description,
      argsSchema: surface.summarize.schema,
    },
    surface.summarize.render,
  );
  server.registerPrompt(
    "answer_customer_question",
    {
      title: PROMPTS.answer_customer_question.title,
      description: PROMPTS.answer_customer_question.description,
      argsSchema: ANSWER_ARGS,
    },
    surface.answer,
  );
  return server;
}
