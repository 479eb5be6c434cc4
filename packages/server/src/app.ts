import type { Config } from "@riverbend/shared/schemas/config.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import compression from "compression";
import express, { type Express } from "express";
import type { Logger } from "pino";
import type { BundleStore } from "./bundle/bundle-store.ts";
import { errorHandler, unmatchedRoute } from "./http/error-handler.ts";
import { lazyRoutes } from "./http/lazy-routes.ts";
import { limitBodySize } from "./http/limits.ts";
import { readRateLimit } from "./http/read-rate-limit.ts";
import { recordRequests } from "./logging/access-log.ts";
import { SessionTokens } from "./mcp/session-tokens.ts";
import { createMetrics, type Metrics } from "./metrics/metrics.ts";
import { metricsRoutes } from "./metrics/routes.ts";
import { healthRoutes, type Readiness, type ReadinessDetails } from "./routes/health.ts";
import { addReviewRoutes } from "./routes/reviews.ts";
import { serveBundle } from "./static/serve-bundle.ts";
import { type HubRouteOptions, hubRoutes } from "./websub-hub/routes.ts";

export interface AppDeps {
  /** The process configuration; READ_RATE_LIMIT_PER_MINUTE absent: no read limit (main.ts passes the configured one). */
  config: Pick<Config, "SITE_URL" | "SERVE_STATIC"> &
    Partial<
      Pick<
        Config,
        | "MCP_RATE_LIMIT_PER_MINUTE"
        | "MCP_MAX_SUBSCRIPTIONS"
        | "METRICS_TOKEN"
        | "READ_RATE_LIMIT_PER_MINUTE"
        | "TRUST_PROXY"
        | "HTTP_REQUEST_TIMEOUT_MS"
        | "HTTP_HEADERS_TIMEOUT_MS"
        | "HTTP_KEEP_ALIVE_TIMEOUT_MS"
      >
    >;
  /** The current build; the store swaps in a new one without a restart. */
  store: BundleStore;
  logger: Logger;
  /** Signs and checks MCP session ids; share its secret between replicas. Default: a random secret. */
  sessions?: SessionTokens;
  /** Aborted when the process stops: long-lived MCP streams (subscriptions/listen) are then closed. */
  stopping?: AbortSignal;
  /** The WebSub hub and its limits; without it /api/websub/hub is not served. */
  hub?: Omit<HubRouteOptions, "bundles">;
  /** Shared with the hub and the MCP session counters; default: a registry of the app's own. */
  metrics?: Metrics;
  /** Why /readyz should answer 503 now; default: always ready. */
  readiness?: Readiness;
  /** Reported by /readyz besides readiness (the database's state). */
  readinessDetails?: ReadinessDetails;
}

const MAX_BODY_BYTES = 64 * 1024;

/** Builds the sidecar's Express app; it does not listen (only main.ts does). */
export function createApp(deps: AppDeps): Express {
  const app = express();
  const urls = siteUrls(deps.config.SITE_URL);
  const metrics = deps.metrics ?? createMetrics();
  app.disable("x-powered-by");
  app.set("etag", false);
  // Client addresses (rate limits) come from X-Forwarded-For only behind proxies configured as trusted.
  app.set("trust proxy", deps.config.TRUST_PROXY ?? false);
  app.use(recordRequests(deps.logger, metrics));
  // The MCP endpoint and the hub read their own bodies (with their own limits and error formats).
  app.use(limitBodySize(MAX_BODY_BYTES, ["/mcp", "/api/websub/hub"]));
  // The read API comes before compression: its answers are compressed once each and kept (see
  // send-answer.ts), and every middleware before it costs each request.
  // One budget per client across the read API's routes and the static documents.
  const readLimit = readRateLimit(deps.config.READ_RATE_LIMIT_PER_MINUTE ?? 0);
  if (readLimit) app.use("/api/reviews", readLimit);
  addReviewRoutes(app, deps.store);
  app.use(compression({ threshold: 1024 }));
  app.use(healthRoutes(deps.store, deps.readiness, deps.readinessDetails));
  app.use(metricsRoutes(metrics, deps.config.METRICS_TOKEN));
  // The MCP SDK and the tool catalog are a third of the start-up's imports: loaded on first use.
  const tokens = deps.sessions ?? new SessionTokens(SessionTokens.randomSecret(), 86_400);
  const mcp = lazyRoutes("/mcp", async () =>
    (await import("./mcp/routes.ts")).mcpRoutes({
      store: deps.store,
      metrics,
      tokens,
      urls,
      rateLimitPerMinute: deps.config.MCP_RATE_LIMIT_PER_MINUTE ?? 600,
      maxSubscriptions: deps.config.MCP_MAX_SUBSCRIPTIONS ?? 256,
      ...(deps.stopping ? { stopping: deps.stopping } : {}),
    }),
  );
  app.use(mcp.handler);
  if (deps.hub) app.use(hubRoutes({ ...deps.hub, bundles: deps.store }));
  if (deps.config.SERVE_STATIC) app.use(serveBundle(deps.store, urls, readLimit));
  app.use(unmatchedRoute);
  app.use(errorHandler(deps.logger));
  return app;
}
