import { type Logger, pino } from "pino";
import { ConfigError, parseConfig } from "../../src/config/parse-config.ts";
import { createApp } from "./app.ts";
import { BundleStore } from "./bundle/bundle-store.ts";
import { BundleError } from "./bundle/load-bundle.ts";
import { createHub } from "./hub/create-hub.ts";
import { SessionTokens } from "./mcp/session-tokens.ts";

/** The only file that reads configuration and listens. */
function start(): void {
  let config: ReturnType<typeof parseConfig>;
  let store: BundleStore;
  let logger: Logger;
  try {
    config = parseConfig();
    // Buffered, asynchronous writes: a synchronous write per access-log line cost a fifth of a cached
    // response's time. pino flushes the buffer on exit.
    logger = pino({ level: config.LOG_LEVEL }, pino.destination({ sync: false }));
    store = new BundleStore(config.DIST_DIR, logger, { pages: config.SERVE_STATIC });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof BundleError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  store.watch(config.RELOAD_INTERVAL_MS);
  if (!config.MCP_SESSION_SECRET) {
    logger.warn("MCP_SESSION_SECRET is not set: MCP sessions are valid in this process only");
  }
  const sessions = new SessionTokens(
    config.MCP_SESSION_SECRET ?? SessionTokens.randomSecret(),
    config.MCP_SESSION_TTL_SECONDS,
  );
  const websub = createHub(config, store, logger);
  websub.hub.start();
  const app = createApp({ config, store, logger, sessions, hub: websub.routes });
  const server = app.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    const local = `http://${config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST}:${port}`;
    const lines = [`Reviews service listening on ${local} (public URL ${config.SITE_URL})`];
    if (config.SERVE_STATIC) {
      lines.push(`  /                 human site (${store.current.bundle.manifest.entries.length} prerendered files)`);
      lines.push("  /reviews.json     whole reviews dataset");
      lines.push("  /insights.json    insights derived from the reviews");
      lines.push("  /api/feed.json    JSON Feed 1.1, 50 newest reviews");
      lines.push("  /feed.xml         Atom feed, 50 newest reviews");
      lines.push("  /openapi.json     OpenAPI 3.1 description");
    } else {
      lines.push("  static documents are not served here (SERVE_STATIC=false): deploy dist/ to a CDN");
    }
    lines.push(`  /api/reviews/search, /api/reviews/since/{date}   ${store.current.index.reviews.length} reviews`);
    lines.push("  /mcp              MCP server (streamable HTTP)");
    lines.push("  /api/websub/hub   WebSub hub for /feed.xml, /api/feed.json, /reviews.json");
    lines.push("  /healthz          health");
    console.log(lines.join("\n"));
  });
  server.on("error", (error) => {
    console.error(`Cannot listen on ${config.HOST}:${config.PORT}: ${error.message}`);
    process.exit(1);
  });
  // Graceful stop: no new connections, in-flight requests and deliveries finish, the database closes.
  const stop = () => {
    store.stop();
    server.close(() => {
      websub.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
    server.closeIdleConnections();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

start();
