/**
 * Router options of the routes that read their own request bodies (/mcp, the hub): exactly their
 * path, as limitBodySize exempts it. Express otherwise also routes `/MCP` and `/mcp/` there, whose
 * bodies limitBodySize has already drained.
 */
export const EXACT_ROUTING = { caseSensitive: true, strict: true } as const;
