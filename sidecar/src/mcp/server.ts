import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import { PROMPTS, SERVER_INFO, SERVER_INSTRUCTIONS, TOOL_LIST } from "../../../src/mcp/listing.ts";
import { answerQuestionPrompt, summarizePrompt } from "../../../src/mcp/prompts.ts";
import { TOOLS, type ToolContext } from "../../../src/mcp/tool-catalog.ts";
import { IsoDateSchema } from "../../../src/schemas/common.ts";
import { InvalidRequestError } from "../../../src/search/errors.ts";
import type { SiteUrls } from "../../../src/site/urls.ts";

// The SDK builds an Ajv validator per server unless given one; a server per request made that about
// a fifth of each request's CPU. It validates elicitation answers only, which this server never asks.
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

// Name, tools and prompts come from one listing, which the server card publishes too.
export { SERVER_INFO };

export interface McpContext extends ToolContext {
  urls: SiteUrls;
  /** Text of a published document, by URL path, for resources/read. */
  readDocument(path: string): string | undefined;
}

const DOCUMENTS = [
  { name: "reviews", path: "/reviews.json", mimeType: "application/json", title: "All reviews (reviews.json)" },
  { name: "insights", path: "/insights.json", mimeType: "application/json", title: "Insights (insights.json)" },
  { name: "json-feed", path: "/api/feed.json", mimeType: "application/feed+json", title: "JSON Feed of the 50 newest" },
  { name: "atom-feed", path: "/feed.xml", mimeType: "application/atom+xml", title: "Atom feed of the 50 newest" },
];

// Errors carrying a JSON-RPC code become error responses; a plain Error keeps the message unprefixed.
const protocolError = (code: number, message: string) => Object.assign(new Error(message), { code });
const resourceNotFound = (uri: string) => protocolError(-32002, `Resource not found: ${uri}`);

/** tools/call: the one implementation, used by the SDK server and by the direct path in routes.ts. */
export function callTool(context: McpContext, name: string, args: unknown): CallToolResult {
  const tool = TOOLS.find((t) => t.name === name);
  // Unknown tools are protocol errors (MCP 2025-11-25), not tool results; the HTTP layer checks too.
  if (!tool) throw protocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  try {
    const structured = tool.run(context, args);
    return { structuredContent: structured, content: [{ type: "text", text: JSON.stringify(structured) }] };
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    const text = `Invalid arguments for ${name}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`;
    return { isError: true, content: [{ type: "text", text }] };
  }
}

/** A fresh MCP server over one loaded build; each HTTP request gets its own. */
export function buildMcpServer(context: McpContext): McpServer {
  const server = new McpServer(SERVER_INFO, {
    jsonSchemaValidator: SHARED_VALIDATOR,
    capabilities: { tools: { listChanged: false }, logging: {} },
    instructions: SERVER_INSTRUCTIONS,
  });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
  server.server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(context, request.params.name, request.params.arguments),
  );

  for (const doc of DOCUMENTS) {
    const uri = `${context.urls.base}${doc.path}`;
    server.registerResource(doc.name, uri, { title: doc.title, mimeType: doc.mimeType }, () => {
      const text = context.readDocument(doc.path);
      if (text === undefined) throw resourceNotFound(uri);
      return { contents: [{ uri, mimeType: doc.mimeType, text }] };
    });
  }

  const ids = () => Array.from({ length: context.index.count }, (_, position) => context.index.idAt(position));
  server.registerResource(
    "review",
    new ResourceTemplate("reviews://review/{id}", {
      list: undefined,
      // The SDK caps the list at 100 and reports total and hasMore itself.
      complete: { id: (value) => ids().filter((id) => id.startsWith(value)) },
    }),
    { title: "One review", description: "One review as JSON, by id.", mimeType: "application/json" },
    (uri, variables) => {
      const id = String(variables.id);
      const position = context.index.positionOf(id);
      if (position === undefined) throw resourceNotFound(uri.href);
      return {
        contents: [
          { uri: uri.href, mimeType: "application/json", text: context.index.json(position).toString("utf8") },
        ],
      };
    },
  );

  const technicianNames = context.business.technicians.map((t) => t.name);
  const serviceIds = context.business.services.map((s) => s.id);
  const startsWith = (values: string[]) => (value: string | undefined) =>
    values.filter((v) => v.toLowerCase().startsWith((value ?? "").toLowerCase()));
  const summarize = PROMPTS.summarize_reviews;
  server.registerPrompt(
    "summarize_reviews",
    {
      title: summarize.title,
      description: summarize.description,
      argsSchema: {
        // describe() goes inside completable(): it returns a new schema that would lose the completer.
        technician: completable(
          z.string().optional().describe(summarize.arguments.technician.description),
          startsWith(technicianNames),
        ),
        service: completable(
          z.string().optional().describe(summarize.arguments.service.description),
          startsWith(serviceIds),
        ),
        since: IsoDateSchema.optional().describe(summarize.arguments.since.description),
      },
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
      argsSchema: { question: z.string().min(1).max(500).describe(answer.arguments.question.description) },
    },
    ({ question }) => ({
      messages: [{ role: "user", content: { type: "text", text: answerQuestionPrompt(context, question) } }],
    }),
  );
  // Nothing here ever changes during a request, and no stream could carry a notification: say so
  // (the SDK's register calls declare listChanged: true; a later declaration overrides them).
  server.server.registerCapabilities({
    tools: { listChanged: false },
    resources: { listChanged: false },
    prompts: { listChanged: false },
  });
  return server;
}
