import compression from "compression";
import express, { type Express } from "express";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import type { Config } from "../../src/schemas/config.ts";
import { siteUrls } from "../../src/site/urls.ts";
import type { BundleStore } from "./bundle/bundle-store.ts";
import { errorHandler, unmatchedRoute } from "./http/error-handler.ts";
import { limitBodySize } from "./http/limits.ts";
import { type HubRouteOptions, hubRoutes } from "./hub/routes.ts";
import { mcpRoutes } from "./mcp/routes.ts";
import { SessionTokens } from "./mcp/session-tokens.ts";
import { healthRoutes } from "./routes/health.ts";
import { reviewRoutes } from "./routes/reviews.ts";
import { serveBundle } from "./static/serve-bundle.ts";

export interface AppDeps {
  config: Pick<Config, "SITE_URL" | "SERVE_STATIC"> & Partial<Pick<Config, "MCP_RATE_LIMIT_PER_MINUTE">>;
  /** The current build; the store swaps in a new one without a restart. */
  store: BundleStore;
  logger: Logger;
  /** Signs and checks MCP session ids; share its secret between replicas. Default: a random secret. */
  sessions?: SessionTokens;
  /** The WebSub hub and its limits; without it /api/websub/hub is not served. */
  hub?: Omit<HubRouteOptions, "bundles">;
}

const MAX_BODY_BYTES = 64 * 1024;

/** Builds the sidecar's Express app; it does not listen (only main.ts does). */
export function createApp(deps: AppDeps): Express {
  const app = express();
  const urls = siteUrls(deps.config.SITE_URL);
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const id = req.headers["x-request-id"]?.toString().slice(0, 100) || crypto.randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
    }),
  );
  // The read API comes first: it is the hot path, and every router before it costs each request.
  // The MCP endpoint and the hub read their own bodies (with their own limits and error formats).
  app.use(limitBodySize(MAX_BODY_BYTES, ["/mcp", "/api/websub/hub"]));
  app.use(compression());
  app.use(reviewRoutes(deps.store));
  app.use(healthRoutes(deps.store));
  app.use(
    mcpRoutes({
      store: deps.store,
      tokens: deps.sessions ?? new SessionTokens(SessionTokens.randomSecret(), 86_400),
      urls,
      rateLimitPerMinute: deps.config.MCP_RATE_LIMIT_PER_MINUTE ?? 600,
    }),
  );
  if (deps.hub) app.use(hubRoutes({ ...deps.hub, bundles: deps.store }));
  if (deps.config.SERVE_STATIC) app.use(serveBundle(deps.store, urls));
  app.use(unmatchedRoute);
  app.use(errorHandler);
  return app;
}
