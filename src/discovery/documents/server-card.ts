import { promptList, SERVER_INFO, SERVER_INSTRUCTIONS, TOOL_LIST } from "@riverbend/shared/mcp-catalog/listing.ts";
import { MCP_CURRENT_REVISION, MCP_REVISION_NOTES, MCP_REVISIONS } from "@riverbend/shared/mcp-catalog/protocol.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";

/** What initialize and server/discover announce (see packages/server/src/mcp/server.ts). */
export const MCP_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false, subscribe: true },
  prompts: { listChanged: false },
  logging: {},
  completions: {},
};

/**
 * /.well-known/mcp/server-card.json: what a client learns from initialize, tools/list and
 * prompts/list, without a session. Server cards are still a draft (SEP-1649, then SEP-2127), so the
 * card carries no `$schema` and names its fields plainly. The revisions are those /mcp serves: the
 * current one statelessly, the 2025 ones with sessions.
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
    protocolVersion: MCP_CURRENT_REVISION,
    protocolVersions: [...MCP_REVISIONS],
    revisions: MCP_REVISION_NOTES,
    authentication: { required: false },
    documentation: `${urls.apiDocs}#mcp`,
    capabilities: MCP_CAPABILITIES,
    tools: TOOL_LIST,
    prompts: promptList(),
  };
}
