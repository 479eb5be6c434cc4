import { createServer, type Server } from "node:http";
import { type AppDeps, createApp } from "./app.ts";
import { createMetrics, type Metrics } from "./metrics/metrics.ts";

/** The sidecar's HTTP server, not listening yet (only main.ts listens): the Express app answers everything. */
export function createSidecarServer(deps: AppDeps): { server: Server; metrics: Metrics } {
  const metrics = deps.metrics ?? createMetrics();
  return { server: createServer(createApp({ ...deps, metrics })), metrics };
}
