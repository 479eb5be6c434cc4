import { createServer, type Server } from "node:http";
import { type AppDeps, createApp } from "./app.ts";
import { createMcpCallFastPath } from "./fast-path/mcp-call.ts";
import { createFastPath } from "./fast-path/read-api.ts";
import { SessionTokens } from "./mcp/session-tokens.ts";
import { createMetrics, type Metrics } from "./metrics/metrics.ts";

/**
 * The sidecar's HTTP server, not listening yet (only main.ts listens): the read API's fast path
 * and the MCP tools/call fast path first, then the Express app for everything they leave.
 * `fastPath: false` serves everything through Express (the reference the fast paths are compared
 * against).
 */
export function createSidecarServer(deps: AppDeps & { fastPath?: boolean }): { server: Server; metrics: Metrics } {
  const metrics = deps.metrics ?? createMetrics();
  // The app's MCP routes lend the tools/call fast path their rate limiter under this instance:
  // one per server (createApp's default when none is given: a random secret, one day).
  const sessions = deps.sessions ?? new SessionTokens(SessionTokens.randomSecret(), 86_400);
  const app = createApp({ ...deps, metrics, sessions });
  if (deps.fastPath === false) return { server: createServer(app), metrics };
  const reads = createFastPath({ store: deps.store, logger: deps.logger, metrics });
  const toolCalls = createMcpCallFastPath({ tokens: sessions, logger: deps.logger, metrics });
  const server = createServer((req, res) => {
    if (!reads(req, res) && !toolCalls(req, res, app)) app(req, res);
  });
  return { server, metrics };
}
