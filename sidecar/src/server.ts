import { createServer, type Server } from "node:http";
import { type AppDeps, createApp } from "./app.ts";
import { createFastPath } from "./fast-path/read-api.ts";
import { createMetrics, type Metrics } from "./metrics/metrics.ts";

/**
 * The sidecar's HTTP server, not listening yet (only main.ts listens): the read API's fast path
 * first, then the Express app for everything it leaves.
 * `fastPath: false` serves everything through Express (the reference the fast path is compared
 * against).
 */
export function createSidecarServer(deps: AppDeps & { fastPath?: boolean }): { server: Server; metrics: Metrics } {
  const metrics = deps.metrics ?? createMetrics();
  const app = createApp({ ...deps, metrics });
  if (deps.fastPath === false) return { server: createServer(app), metrics };
  const reads = createFastPath({ store: deps.store, logger: deps.logger, metrics });
  const server = createServer((req, res) => {
    if (!reads(req, res)) app(req, res);
  });
  return { server, metrics };
}
