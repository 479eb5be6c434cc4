import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { promptList, SERVER_INFO, SERVER_INSTRUCTIONS, TOOL_LIST } from "../../mcp/listing.ts";
import type { SiteUrls } from "../../site/urls.ts";

/** What initialize announces once every tool, resource and prompt is registered (see sidecar/src/mcp/server.ts). */
export const MCP_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  logging: {},
  completions: {},
};

/**
 * /.well-known/mcp/server-card.json: what a client learns from initialize, tools/list and
 * prompts/list, without a session. Server cards are still a draft (SEP-1649, then SEP-2127), so the
 * card carries no `$schema` and names its fields plainly; the protocol versions are the SDK's, which
 * is what the server negotiates.
 */
export function buildServerCard(urls: SiteUrls) {
  return {
    name: SERVER_INFO.name,
    title: SERVER_INFO.title,
    version: SERVER_INFO.version,
    description: SERVER_INSTRUCTIONS,
    serverInfo: SERVER_INFO,
    transport: { type: "streamable-http", endpoint: urls.mcp },
    remotes: [{ type: "streamable-http", url: urls.mcp }],
    protocolVersion: LATEST_PROTOCOL_VERSION,
    protocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    authentication: { required: false },
    documentation: `${urls.apiDocs}#mcp`,
    capabilities: MCP_CAPABILITIES,
    tools: TOOL_LIST,
    prompts: promptList(),
  };
}
