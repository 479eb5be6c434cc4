/*
 * The MCP revisions /mcp serves and what its resources are, in one place: the server, the server
 * card, /llms.txt, the API page and the README's examples all read these, so they cannot drift.
 */

/** The current revision: stateless, every request self-describing (`server/discover`, no session). */
export const MCP_CURRENT_REVISION = "2026-07-28";

/** The 2025 revisions still served, with `initialize` and a signed `Mcp-Session-Id`. */
export const MCP_SESSION_REVISIONS = ["2025-11-25", "2025-06-18"] as const;

export const MCP_REVISIONS = [MCP_CURRENT_REVISION, ...MCP_SESSION_REVISIONS] as const;

/** How a client speaks each served revision, in one line (server card, /llms.txt, API page). */
export const MCP_REVISION_NOTES: Record<(typeof MCP_REVISIONS)[number], string> = {
  "2026-07-28":
    "stateless: no initialize and no session; each POST carries _meta protocolVersion, clientInfo and clientCapabilities and the MCP-Protocol-Version, Mcp-Method (and Mcp-Name) headers; server/discover; subscriptions/listen for document updates",
  "2025-11-25": "initialize, then the Mcp-Session-Id it returns on every request (signed: any replica accepts it)",
  "2025-06-18": "initialize, then the Mcp-Session-Id it returns on every request (signed: any replica accepts it)",
};

/**
 * How long a client or intermediary may reuse a list or a read (`ttlMs`, `cacheScope: "public"`):
 * answers change only with a new build, which subscribers of `subscriptions/listen` hear of at once.
 */
export const MCP_CACHE_TTL_MS = 60_000;

/** The published documents offered as resources: the registry's rows with an MCP resource name. */
export { MCP_RESOURCE_DOCUMENTS } from "../registry/documents.ts";

/** The resource template of one review. */
export const REVIEW_TEMPLATE = "reviews://review/{id}";
