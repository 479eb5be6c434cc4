import { createServer, type Server } from "node:http";
import { HTTP_TIMEOUT_DEFAULTS } from "@riverbend/shared/schemas/config.ts";
import { type AppDeps, createApp } from "./app.ts";
import { createMetrics, type Metrics } from "./metrics/metrics.ts";

/**
 * The sidecar's HTTP server, not listening yet (only main.ts listens): the Express app answers
 * everything; a client slower than the configured timeouts (headers, whole request, idle keep-alive)
 * has its connection closed.
 */
export function createSidecarServer(deps: AppDeps): { server: Server; metrics: Metrics } {
  const metrics = deps.metrics ?? createMetrics();
  const { config } = deps;
  const headersTimeout = config.HTTP_HEADERS_TIMEOUT_MS ?? HTTP_TIMEOUT_DEFAULTS.headers;
  const server = createServer(
    {
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS ?? HTTP_TIMEOUT_DEFAULTS.request,
      headersTimeout,
      keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? HTTP_TIMEOUT_DEFAULTS.keepAlive,
      // How often Node looks for requests past their timeouts (default 30 s, which would let a slow
      // client overstay a short timeout by that much).
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
    },
    createApp({ ...deps, metrics }),
  );
  return { server, metrics };
}
