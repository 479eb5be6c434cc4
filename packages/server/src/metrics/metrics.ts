import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** What the hub reports: deliveries by outcome, subscriptions per topic (read from its store). */
export type DeliveryOutcome = "delivered" | "failed" | "gave_up" | "dropped";

export interface Metrics {
  registry: Registry;
  /** Counts one answered request; `route` is a route pattern, never a raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  mcpSessionOpened(): void;
  mcpSessionTerminated(): void;
  /** Sessions this process opened that have not ended, sampled at scrape time. */
  trackActiveMcpSessions(count: () => number): void;
  delivery(outcome: DeliveryOutcome): void;
  /** Subscriptions per topic, read from the hub's store at scrape time. */
  trackSubscriptions(count: () => Promise<ReadonlyMap<string, number>>): void;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * A fresh registry with the sidecar's metrics and the default process metrics: never the global
 * default registry, so several apps (tests, replicas in one process) do not share counters.
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from request to response end, by method, route pattern and status.",
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });

  // One child per label set, made once (prom-client's labels()): a request then builds no label
  // object. prom-client 15's children still validate and hash their labels on every inc/observe, and
  // its API has no handle that skips it. The sets are bounded as the labels are (route patterns,
  // known methods, statuses).
  const seriesByLabels = new Map<
    string,
    { count: Counter.Internal; duration: Histogram.Internal<"method" | "route" | "status"> }
  >();

  const opened = new Counter({
    name: "mcp_sessions_opened_total",
    help: "MCP sessions opened (initialize answered).",
    registers: [registry],
  });
  const terminated = new Counter({
    name: "mcp_sessions_terminated_total",
    help: "MCP sessions terminated by the client (DELETE /mcp).",
    registers: [registry],
  });
  let activeSessions = () => 0;
  new Gauge({
    name: "mcp_sessions_active",
    help: "MCP sessions opened by this process, neither terminated nor expired.",
    registers: [registry],
    collect() {
      this.set(activeSessions());
    },
  });
  const deliveries = new Counter({
    name: "websub_deliveries_total",
    help: "WebSub content deliveries by outcome (gave_up: the subscription was removed after failures or a 410).",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  for (const outcome of ["delivered", "failed", "gave_up", "dropped"]) deliveries.labels({ outcome }).inc(0);
  let subscriptions = async (): Promise<ReadonlyMap<string, number>> => new Map();
  new Gauge({
    name: "websub_subscriptions",
    help: "Active WebSub subscriptions per topic.",
    labelNames: ["topic"] as const,
    registers: [registry],
    async collect() {
      // The hub's database may be away: the gauge is then empty rather than the scrape failing.
      const counts = await subscriptions().catch(() => new Map<string, number>());
      this.reset();
      for (const [topic, count] of counts) this.labels({ topic }).set(count);
    },
  });

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      // Methods outside the list share one label, so a client inventing methods cannot grow the series.
      const label = METHODS.has(method) ? method : "OTHER";
      const key = `${label} ${status} ${route}`;
      let series = seriesByLabels.get(key);
      if (!series) {
        const labels = { method: label, route, status: String(status) };
        series = { count: requests.labels(labels), duration: durations.labels(labels) };
        seriesByLabels.set(key, series);
      }
      series.count.inc();
      series.duration.observe(seconds);
    },
    mcpSessionOpened: () => opened.inc(),
    mcpSessionTerminated: () => terminated.inc(),
    trackActiveMcpSessions(count) {
      activeSessions = count;
    },
    delivery: (outcome) => deliveries.labels({ outcome }).inc(),
    trackSubscriptions(count) {
      subscriptions = count;
    },
  };
}
