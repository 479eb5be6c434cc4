import { readFileSync } from "node:fs";
import { createMcpExpressApp } from "@modelcontextprotocol/express";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { type CallToolResult, createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

/**
 * bench:mcp's SDK floor, run as a child process: the official v2 SDK's documented Express wiring
 * (createMcpExpressApp, createMcpHandler with `legacy: 'reject'`, toNodeHandler) and nothing of ours,
 * with two tools that do no work: `ping` answers one word, and `replay` answers a search_reviews
 * result prepared beforehand (the file FLOOR_RESULTS, a JSON array) by its position, so its
 * responses carry the very bytes the sidecar's do. What a 2026-07-28 tools/call costs on this SDK
 * before any tool work.
 */

const prepared = JSON.parse(readFileSync(process.env.FLOOR_RESULTS ?? "", "utf8")) as CallToolResult[];

// Everything but the server itself is made once, so the floor is the SDK's per-request work alone.
const SERVER_INFO = { name: "sdk-floor", version: "1.0.0" };
const OPTIONS = { capabilities: { tools: {} } };
const PING = { description: "Answers pong.", inputSchema: z.object({}) };
const PONG: CallToolResult = { content: [{ type: "text", text: "pong" }] };
const REPLAY = {
  description: "A prepared result, by position.",
  inputSchema: z.object({ position: z.number().int().min(0) }),
};
const replay = ({ position }: { position: number }) => prepared[position % prepared.length] ?? PONG;

function floorServer(): McpServer {
  const server = new McpServer(SERVER_INFO, OPTIONS);
  server.registerTool("ping", PING, () => PONG);
  server.registerTool("replay", REPLAY, replay);
  return server;
}

const app = createMcpExpressApp();
const handler = toNodeHandler(createMcpHandler(floorServer, { legacy: "reject" }));
app.post("/mcp", (req, res) => handler(req, res, req.body));
const listener = app.listen(0, "127.0.0.1", () => {
  const address = listener.address();
  if (address && typeof address === "object") console.log(`listening on http://127.0.0.1:${address.port}`);
});
process.once("SIGTERM", () => listener.close(() => process.exit(0)));
