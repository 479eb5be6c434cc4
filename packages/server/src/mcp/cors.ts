import cors from "cors";

/**
 * CORS for browser MCP clients: the 2025 session header must be readable and sendable, and the
 * 2026-07-28 request headers (protocol version, method, name) sendable.
 */
export const mcpCors = cors({
  origin: true,
  methods: ["POST", "GET", "DELETE", "OPTIONS"],
  allowedHeaders: [
    "Content-Type",
    "Accept",
    "Authorization",
    "Mcp-Session-Id",
    "Mcp-Protocol-Version",
    "Mcp-Method",
    "Mcp-Name",
    "Last-Event-ID",
  ],
  exposedHeaders: ["Mcp-Session-Id", "Mcp-Protocol-Version"],
  maxAge: 86_400,
});
