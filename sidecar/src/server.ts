import { createServer, type Server } from "node:http";
import { type AppDeps, createApp } from "./app.ts";
import { createMcpCallFastPath } from "./fast-path/mcp-call.ts";
import { createFastPath } from "./fast-path/read-api.ts";
import type { DirectEndpointSlot } from "./mcp/direct-endpoint.ts";
import { createMetrics, type Metrics } from "./metrics/metrics.ts";

/**
 * The sidecar's HTTP server, not listening yet (only main.ts listens): the read API's fast path
 * and the MCP tools/call fast path first, then the Express app for everything they leave.
 * `fastPath: false` serves everything through Express (the reference the fast paths are compared
 * against).
 */
export function createSidecarServer(deps: AppDeps & { fastPath?: boolean }): { server: Server; metrics: Metrics } {
  const metrics = deps.metrics ?? createMetrics();
  // The app's MCP routes lend the tools/call fast path their functions and rate limiter here.
  const mcpDirect: DirectEndpointSlot = {};
  const app = createApp({ ...deps, metrics, mcpDirect });
  if (deps.fastPath === false) return { server: createServer(app), metrics };
  const reads = createFastPath({ store: deps.store, logger: deps.logger, metrics });
  const toolCalls = createMcpCallFastPath({ endpoint: mcpDirect, logger: deps.logger, metrics });
  const server = createServer((req, res) => {
    if (!reads(req, res) && !toolCalls(req, res, app)) app(req, res);
  });
  return { server, metrics };
}
