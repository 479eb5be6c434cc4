import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { SiteUrls } from "../../../src/site/urls.ts";
import { type LoadedBundle, readDocument } from "../bundle/loaded-bundle.ts";
import { callTool, type McpContext } from "./server.ts";

/** What the tools and resources of one loaded build see. */
export function mcpContext(loaded: LoadedBundle, urls: SiteUrls): McpContext {
  return {
    index: loaded.index,
    search: loaded.search,
    business: loaded.business,
    aggregate: loaded.aggregate,
    insights: loaded.insights,
    urls,
    readDocument: (path) => readDocument(loaded.bundle, path),
  };
}

/** `application/json`, parameters (charset) aside, as `req.is("application/json")` reads it. */
function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const end = contentType.indexOf(";");
  return (end < 0 ? contentType : contentType.slice(0, end)).trim().toLowerCase() === "application/json";
}

/**
 * Headers the SDK's transport would accept for a JSON answer: Accept offers both JSON and an event
 * stream, the body is JSON, the protocol version (when sent) is one the SDK supports. Anything else
 * is left to the SDK, so its answers stay the reference.
 */
export function directCallHeaders(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  if (!isJson(headers["content-type"])) return false;
  const version = headers["mcp-protocol-version"];
  return version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(String(version));
}

export interface ToolCall {
  id: string | number;
  name: string;
  args: unknown;
}

/** The tool call in a checked JSON-RPC message, when the direct path answers it (a request with an id, a tool name). */
export function directToolCall(
  headers: IncomingHttpHeaders,
  message: { method?: unknown; params?: unknown },
  id: string | number | null,
): ToolCall | undefined {
  if (message.method !== "tools/call" || id === null || !directCallHeaders(headers)) return undefined;
  const params = message.params as { name?: unknown; arguments?: unknown } | null | undefined;
  if (!params || typeof params.name !== "string") return undefined;
  const { name, arguments: args = {} } = params;
  return { id, name, args };
}

const HEAD = Buffer.from('{"result":');

/** A JSON-RPC response in pieces: the cached result's bytes are sent as they are, never copied. */
export interface ToolCallResponse {
  chunks: readonly [Buffer, Buffer, Buffer];
  length: number;
}

/**
 * The whole JSON-RPC response to a tool call, in the SDK's member order. A build's tools are pure
 * functions of their arguments, so the serialized result is kept per build (tool errors, invalid
 * arguments, are results too, and as deterministic). An unknown tool throws a protocol error
 * carrying its JSON-RPC `code`.
 */
export function toolCallResponse(loaded: LoadedBundle, urls: SiteUrls, call: ToolCall): ToolCallResponse {
  const result = loaded.toolResults.memo(`${call.name}\u0000${JSON.stringify(call.args)}`, {
    context: () => Buffer.from(JSON.stringify(callTool(mcpContext(loaded, urls), call.name, call.args))),
  });
  const tail = Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`);
  return { chunks: [HEAD, result, tail], length: HEAD.length + result.length + tail.length };
}

/** Writes the pieces after the headers, in one system call (one writev) where the socket allows. */
export function writeToolCallResponse(res: ServerResponse, response: ToolCallResponse): void {
  const [head, result, tail] = response.chunks;
  res.cork();
  res.write(head);
  res.write(result);
  res.end(tail);
  res.uncork();
}
