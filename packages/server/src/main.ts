import type { Server } from "node:http";
import { enableCompileCache } from "node:module";
import type { Config } from "@riverbend/shared/schemas/config.ts";
import type { Logger } from "pino";
import type { BundleStore as Store } from "./bundle/bundle-store.ts";
import type { createHub as CreateHub } from "./websub-hub/create-hub.ts";

// Start-up time is a target (under 1 s with 100k reviews). V8's compiled code of the modules below
// is cached on disk (Node's compile cache, in the OS temp folder) and reused by every later start,
// so they are imported only once the cache is on.
enableCompileCache();
const [
  { setTimeout: delay },
  { chooseLogOutput, createLogger, underCi },
  { ConfigError, parseConfig },
  { BundleStore },
  { BundleError },
  { createHub },
  { SessionTokens },
  { createMetrics },
  { createSidecarServer },
  { SiteUrlMismatchError },
  { connectSharedState },
  { startupBanner },
] = await Promise.all([
  import("node:timers/promises"),
  import("./logging/create-logger.ts"),
  import("@riverbend/shared/config/parse-config.ts"),
  import("./bundle/bundle-store.ts"),
  import("./bundle/load-bundle.ts"),
  import("./websub-hub/create-hub.ts"),
  import("./mcp/session-tokens.ts"),
  import("./metrics/metrics.ts"),
  import("./server.ts"),
  import("@riverbend/shared/bundle/built-for.ts"),
  import("./database/shared-state.ts"),
  import("./banner.ts"),
]);

function describe(config: Config, store: Store, port: number): string {
  return startupBanner({
    local: `http://${config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST}:${port}`,
    siteUrl: config.SITE_URL,
    serveStatic: config.SERVE_STATIC,
    files: store.current.bundle.manifest.entries.length,
    reviews: store.current.index.count,
    metricsToken: Boolean(config.METRICS_TOKEN),
  });
}

/** Resolves true if `work` settles before `deadline` (epoch ms), false otherwise. */
const within = (work: Promise<unknown>, deadline: number) =>
  Promise.race([work.then(() => true), delay(Math.max(0, deadline - Date.now()), false, { ref: false })]);

/**
 * Graceful stop: /readyz turns 503 (for SHUTDOWN_DELAY_MS new connections are still taken, so a
 * load balancer can notice), then no new connections; in-flight requests and hub deliveries finish
 * within SHUTDOWN_TIMEOUT_MS, the database closes (checkpointing its WAL) and the process exits.
 */
async function shutdown(
  config: Config,
  server: Server,
  websub: ReturnType<typeof CreateHub>,
  logger: Logger,
  streams: AbortController,
  closeDatabase: () => Promise<void>,
) {
  await delay(config.SHUTDOWN_DELAY_MS);
  const deadline = Date.now() + config.SHUTDOWN_TIMEOUT_MS;
  const closed = new Promise((resolve) => server.close(resolve));
  // Long-lived MCP subscription streams would otherwise hold their connections until the deadline.
  streams.abort();
  // Keep-alive connections become idle once their request is answered: close them as they do.
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const clean = await within(Promise.all([closed, websub.close().then(closeDatabase)]), deadline);
  clearInterval(sweep);
  if (!clean) {
    logger.warn("shutdown deadline reached: cutting the remaining connections and deliveries");
    server.closeAllConnections();
    websub.closeNow();
  }
  logger.info({ clean }, "stopped");
  logger.flush();
  process.exit(clean ? 0 : 1);
}

/** The only file that reads configuration and listens. */
async function start(): Promise<void> {
  let config: Config;
  let store: Store;
  let logger: Logger;
  try {
    config = parseConfig();
    logger = createLogger(
      chooseLogOutput({
        format: config.LOG_FORMAT,
        level: config.LOG_LEVEL,
        levelGiven: Boolean(process.env.LOG_LEVEL),
        terminal: process.stdout.isTTY === true,
        ci: underCi(process.env.CI),
      }),
    );
    store = new BundleStore(config.DIST_DIR, logger, { pages: config.SERVE_STATIC, siteUrl: config.SITE_URL });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof BundleError || error instanceof SiteUrlMismatchError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  store.watch(config.RELOAD_INTERVAL_MS);
  if (!config.MCP_SESSION_SECRET) {
    logger.warn("MCP_SESSION_SECRET is not set: MCP sessions are valid in this process only");
  }
  // DATABASE_URL: the hub's state and MCP session revocations in PostgreSQL, shared by replicas.
  let shared: Awaited<ReturnType<typeof connectSharedState>>;
  try {
    shared = await connectSharedState(config.DATABASE_URL, logger);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  const sessions = new SessionTokens(
    config.MCP_SESSION_SECRET ?? SessionTokens.randomSecret(),
    config.MCP_SESSION_TTL_SECONDS,
    Date.now,
    shared.revocations,
  );
  const metrics = createMetrics();
  const websub = createHub(config, store, logger, metrics, shared.db);
  websub.hub.start();
  let stopping = false;
  // The database being away makes only the hub answer 503: reads and MCP still work, so the
  // replica stays ready and /readyz reports the database's state in its body.
  const readiness = () => {
    if (stopping) return "shutting down";
    if (store.refusedBuild) return store.refusedBuild;
    return shared.db ? undefined : websub.problem();
  };
  const databaseState = () => ({ database: shared.describe(websub.problem()) });
  const streams = new AbortController();
  const { server } = createSidecarServer({
    config,
    store,
    logger,
    sessions,
    hub: websub.routes,
    metrics,
    readiness,
    stopping: streams.signal,
    readinessDetails: databaseState,
  });
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    console.log(describe(config, store, typeof address === "object" && address ? address.port : config.PORT));
    // What start-up left for later (the MCP modules, the folded review texts), done once listening
    // so the first MCP call and the first text query do not wait for it.
    setImmediate(() => {
      void import("./mcp/routes.ts");
      if (store.current.index.count > 0) store.current.index.folded(0);
    });
  });
  server.on("error", (error) => {
    console.error(`Cannot listen on ${config.HOST}:${config.PORT}: ${error.message}`);
    process.exit(1);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    store.stop();
    logger.info("shutting down");
    void shutdown(config, server, websub, logger, streams, shared.close);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

await start();
