import compression from "compression";
import express, { type Express } from "express";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import type { Config } from "../../src/schemas/config.ts";
import { siteUrls } from "../../src/site/urls.ts";
import type { Bundle } from "./bundle/load-bundle.ts";
import { errorHandler, unmatchedRoute } from "./http/error-handler.ts";
import { serveBundle } from "./static/serve-bundle.ts";

export interface AppDeps {
  config: Pick<Config, "SITE_URL" | "SERVE_STATIC">;
  /** The current bundle; a function so that a new build can be swapped in without a restart. */
  bundle: () => Bundle;
  logger: Logger;
}

/** Builds the sidecar's Express app; it does not listen (only main.ts does). */
export function createApp(deps: AppDeps): Express {
  const app = express();
  const urls = siteUrls(deps.config.SITE_URL);
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req) => req.headers["x-request-id"]?.toString() ?? crypto.randomUUID(),
    }),
  );
  app.use(compression());
  if (deps.config.SERVE_STATIC) app.use(serveBundle(deps.bundle, urls));
  app.use(unmatchedRoute);
  app.use(errorHandler);
  return app;
}
