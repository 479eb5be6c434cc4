/**
 * GET /metrics (Prometheus text, prom-client on a registry of the app's own) after real traffic:
 * request counters and durations by method, route pattern and status, MCP
 * sessions, WebSub subscriptions per topic and deliveries by outcome (hub wired by createHub, as in
 * main.ts, calling a local HTTPS subscriber), the bearer token when configured, and /readyz.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import { createMetrics } from "@riverbend/server/metrics/metrics.ts";
import { createSidecarServer } from "@riverbend/server/server.ts";
import { createHub } from "@riverbend/server/websub-hub/create-hub.ts";
import { parseConfig } from "@riverbend/shared/config/parse-config.ts";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listen } from "./support/http.ts";
import { HttpsSubscriber, makeTestCertificates } from "./support/https-subscriber.ts";
import { initializeRaw, MCP_HEADERS } from "./support/mcp-rpc.ts";

const SITE = "https://reviews.test";
const TOKEN = "metrics-token-0123456789";
const silent = pino({ level: "silent" });

let work: string;
let subscriber: HttpsSubscriber;
let websub: ReturnType<typeof createHub>;
let bundles: BundleStore;
let server: Awaited<ReturnType<typeof listen>> | undefined;
let base: string;
let ready: string | undefined;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "metrics-"));
  cpSync(inject("sampleDist"), path.join(work, "dist"), { recursive: true });
  const certificates = await makeTestCertificates();
  writeFileSync(path.join(work, "ca.pem"), certificates.ca);
  subscriber = await HttpsSubscriber.start(certificates);
  const config = parseConfig({
    SITE_URL: SITE,
    SERVE_STATIC: "false",
    DIST_DIR: path.join(work, "dist"),
    STATE_DIR: path.join(work, "state"),
    HUB_ALLOWED_CIDRS: "127.0.0.0/8",
    HUB_EXTRA_CA_FILE: path.join(work, "ca.pem"),
    HUB_RETRY_MIN_MS: "10",
    HUB_RETRY_MAX_MS: "20",
    METRICS_TOKEN: TOKEN,
  });
  bundles = new BundleStore(config.DIST_DIR, silent);
  const metrics = createMetrics();
  websub = createHub(config, bundles, silent, metrics);
  websub.hub.start();
  const built = createSidecarServer({
    config,
    store: bundles,
    logger: silent,
    hub: { ...websub.routes, ratePerMinute: 10_000, callbackHostRatePerMinute: 10_000 },
    metrics,
    readiness: () => ready,
  });
  server = await listen(built.server);
  base = server.base;
});
afterAll(async () => {
  await server?.close();
  await websub?.close();
  await subscriber?.close();
  rmSync(work, { recursive: true, force: true });
});

const scrape = async () => {
  const response = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};
/** The value of one series, 0 when absent. */
const value = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};
const until = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe("GET /metrics", () => {
  it("asks for the bearer token when one is configured", async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${base}/metrics`, { headers: { Authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("counts requests by method, route pattern and status, and has the process metrics", async () => {
    const before = await scrape();
    const search = 'http_requests_total{method="GET",route="/api/reviews/search",status="200"}';
    const since = 'http_requests_total{method="GET",route="/api/reviews/since/:date",status="400"}';
    const unmatched = 'http_requests_total{method="GET",route="(unmatched)",status="404"}';
    const health = 'http_requests_total{method="GET",route="/healthz",status="200"}';
    for (const url of ["/api/reviews/search?rating=5", "/api/reviews/search?rating=4", "/api/reviews/search"]) {
      await (await fetch(`${base}${url}`)).arrayBuffer();
    }
    await (await fetch(`${base}/api/reviews/since/2025-02-30`)).arrayBuffer();
    await (await fetch(`${base}/api/reviews/since/not-a-date`)).arrayBuffer();
    await (await fetch(`${base}/no/such/${Math.random()}`)).arrayBuffer();
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    const after = await scrape();
    expect(value(after, search) - value(before, search)).toBe(3);
    expect(value(after, since) - value(before, since)).toBe(2);
    expect(value(after, unmatched) - value(before, unmatched)).toBe(1);
    expect(value(after, health) - value(before, health)).toBe(1);
    // Raw paths never become labels: the since dates above are not in the output.
    expect(after).not.toContain("2025-02-30");
    const count = 'http_request_duration_seconds_count{method="GET",route="/api/reviews/search",status="200"}';
    expect(value(after, count) - value(before, count)).toBe(3);
    expect(after).toContain("process_resident_memory_bytes");
    expect(after).toContain("nodejs_eventloop_lag_seconds");
  });

  it("counts MCP sessions opened, active and terminated", async () => {
    const before = await scrape();
    const { session } = await initializeRaw(base, "2025-06-18", { Host: "127.0.0.1" });
    const opened = await scrape();
    expect(value(opened, "mcp_sessions_opened_total") - value(before, "mcp_sessions_opened_total")).toBe(1);
    expect(value(opened, "mcp_sessions_active")).toBe(value(before, "mcp_sessions_active") + 1);
    const deleted = await fetch(`${base}/mcp`, {
      method: "DELETE",
      headers: { ...MCP_HEADERS, "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" },
    });
    expect(deleted.status).toBe(200);
    const ended = await scrape();
    expect(value(ended, "mcp_sessions_terminated_total") - value(before, "mcp_sessions_terminated_total")).toBe(1);
    expect(value(ended, "mcp_sessions_active")).toBe(value(before, "mcp_sessions_active"));
  });

  it("shows subscriptions per topic and deliveries by outcome", async () => {
    const topic = `${SITE}/feed.xml`;
    subscriber.on("/ok", { GET: "echo", POST: "ok" }).on("/gone", { GET: "echo", POST: "gone" });
    for (const callback of [subscriber.url("/ok"), subscriber.url("/gone")]) {
      const form = new URLSearchParams({ "hub.mode": "subscribe", "hub.topic": topic, "hub.callback": callback });
      const response = await fetch(`${base}/api/websub/hub`, { method: "POST", body: form });
      expect(response.status).toBe(202);
    }
    const gauge = `websub_subscriptions{topic="${topic}"}`;
    await until(async () => value(await scrape(), gauge) === 2);
    // The topic's content owed again, as a new build would make it: both subscribers get it.
    const sha = bundles.current.bundle.entries.get("/feed.xml")?.sha256 ?? "";
    await websub.hub.store.markChanged(topic, "an-older-hash", Date.now());
    await websub.hub.store.markChanged(topic, sha, Date.now());
    websub.hub.kick();
    await until(async () => value(await scrape(), 'websub_deliveries_total{outcome="gave_up"}') === 1);
    const text = await scrape();
    expect(value(text, 'websub_deliveries_total{outcome="delivered"}')).toBe(1);
    expect(value(text, gauge)).toBe(1);
  });
});

describe("GET /readyz", () => {
  it("answers 200 when ready and 503 with the reason otherwise", async () => {
    ready = undefined;
    const ok = await fetch(`${base}/readyz`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: "ready" });
    ready = "shutting down";
    const not = await fetch(`${base}/readyz`);
    expect(not.status).toBe(503);
    expect(not.headers.get("cache-control")).toBe("no-store");
    expect(await not.json()).toEqual({ status: "not_ready", reason: "shutting down" });
    ready = undefined;
  });
});
