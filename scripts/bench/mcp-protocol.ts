import { isDeepStrictEqual } from "node:util";
import { MCP_CURRENT_REVISION } from "@riverbend/shared/mcp-catalog/protocol.ts";
import { queryString } from "./shared-filters.ts";

/**
 * The MCP messages bench:mcp sends (2026-07-28 tools/call; 2025 initialize and tools/call in a
 * session) and the checks that the endpoint answers them exactly as the HTTP search does, before
 * anything is timed.
 */

const PROTOCOL_VERSION = "2025-11-25";

export const MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": PROTOCOL_VERSION,
};
export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "bench-mcp", version: "1" } },
});
export const callBody = (args: Record<string, string | number>, id = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_reviews", arguments: args } });

/** Headers of a 2026-07-28 tools/call of a tool: no session, the method and name repeated. */
export const modernHeaders = (tool: string) => ({
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": MCP_CURRENT_REVISION,
  "Mcp-Method": "tools/call",
  "Mcp-Name": tool,
});
export const MODERN_HEADERS = modernHeaders("search_reviews");
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MCP_CURRENT_REVISION,
  "io.modelcontextprotocol/clientInfo": { name: "bench-mcp", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
/** A self-describing 2026-07-28 tools/call. */
export const modernToolCallBody = (tool: string, args: Record<string, unknown>, id = 1) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: tool, arguments: args, _meta: MODERN_META },
  });
export const modernCallBody = (args: Record<string, string | number>, id = 1) =>
  modernToolCallBody("search_reviews", args, id);

/** Initializes a session and completes the handshake; resolves with its Mcp-Session-Id. */
export async function openSession(base: string): Promise<string> {
  const response = await fetch(`${base}/mcp`, { method: "POST", headers: MCP_HEADERS, body: INITIALIZE_BODY });
  const session = response.headers.get("mcp-session-id");
  await response.text();
  if (response.status !== 200 || !session) throw new Error(`initialize: HTTP ${response.status}`);
  const initialized = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...MCP_HEADERS, "Mcp-Session-Id": session },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.text();
  if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
  return session;
}

/** Checks once per filter that the tool, in either revision, and the HTTP search give the very same page. */
export async function checkSameResults(base: string, session: string, mix: Record<string, string | number>[]) {
  for (const args of mix) {
    const http = await (await fetch(`${base}/api/reviews/search?${queryString(args)}`)).json();
    const calls = [
      { revision: PROTOCOL_VERSION, headers: { ...MCP_HEADERS, "Mcp-Session-Id": session }, body: callBody(args) },
      { revision: MCP_CURRENT_REVISION, headers: MODERN_HEADERS, body: modernCallBody(args) },
    ];
    for (const { revision, headers, body } of calls) {
      const response = await fetch(`${base}/mcp`, { method: "POST", headers, body });
      const rpc = (await response.json()) as { result?: { structuredContent?: unknown; isError?: boolean } };
      if (rpc.result?.isError || !isDeepStrictEqual(rpc.result?.structuredContent, http)) {
        throw new Error(`search_reviews ${JSON.stringify(args)} (${revision}) differs from the HTTP search`);
      }
    }
  }
}
