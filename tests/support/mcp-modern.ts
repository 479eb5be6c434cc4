/**
 * Clients of the current MCP revision (2026-07-28): the official v2 client pinned to it (no fallback
 * to the 2025 handshake), and raw self-describing requests for what a client library never sends.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { MCP_CURRENT_REVISION } from "@riverbend/shared/mcp-catalog/protocol.ts";
import { MCP_HEADERS, type RpcReply } from "./mcp-rpc.ts";

/** A v2 client connected to `${base}/mcp` with the current revision pinned. */
export async function pinnedClient(base: string, name = "vitest-modern"): Promise<Client> {
  const client = new Client(
    { name, version: "1.0.0" },
    { versionNegotiation: { mode: { pin: MCP_CURRENT_REVISION } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return client;
}

/** The `_meta` every request of the current revision carries. */
export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MCP_CURRENT_REVISION,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** The method's `Mcp-Name`: what tools/call, resources/read and prompts/get act on. */
function nameOf(method: string, params: Record<string, unknown>): string | undefined {
  if (method === "resources/read") return String(params.uri);
  if (method === "tools/call" || method === "prompts/get") return String(params.name);
  return undefined;
}

/**
 * POSTs one request of the current revision, its headers matching its body unless `headers`
 * overrides them. Returns status, headers and the parsed JSON body.
 */
export async function postModern(
  base: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  id: number | string = 1,
): Promise<RpcReply> {
  const name = nameOf(method, params);
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      ...MCP_HEADERS,
      "MCP-Protocol-Version": MCP_CURRENT_REVISION,
      "Mcp-Method": method,
      ...(name === undefined ? {} : { "Mcp-Name": name }),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: MODERN_META } }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}
