/**
 * Issue 20's connection-level findings: slow clients are cut by deliberate timeouts (10), and the
 * hub's path is routed exactly as its body is handled (8), on real servers on loopback ports.
 */
import { connect, type Socket } from "node:net";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import { createSidecarServer } from "@riverbend/server/server.ts";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listen, sendRaw } from "./support/http.ts";
import { HttpsSubscriber } from "./support/https-subscriber.ts";
import { type HubEnv, startHubEnv, TOPICS } from "./support/hub-env.ts";

const silent = pino({ level: "silent" });

/** Opens a connection, writes `text` and resolves with what the server sent once it closed (or "open" after `waitMs`). */
function holdOpen(base: string, text: string, waitMs: number): Promise<{ closed: boolean; answer: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    let answer = "";
    const socket: Socket = connect(Number(port), hostname, () => socket.write(text));
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("error", () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closed: false, answer });
    }, waitMs);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ closed: true, answer });
    });
  });
}

describe("slow clients (finding 10)", () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    const store = new BundleStore(inject("sampleDist"), silent);
    const config = {
      SITE_URL: "https://reviews.test",
      SERVE_STATIC: true,
      HTTP_REQUEST_TIMEOUT_MS: 400,
      HTTP_HEADERS_TIMEOUT_MS: 200,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 200,
    };
    server = await listen(createSidecarServer({ config, store, logger: silent }).server);
  });
  afterAll(() => server.close());

  it("closes a connection whose body to /mcp trickles slower than the request timeout", async () => {
    const head =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
      "Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{";
    const outcome = await holdOpen(server.base, head, 5_000);
    expect(outcome.closed).toBe(true);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 408 |^$/);
  });

  it("closes a connection whose headers never end", async () => {
    const outcome = await holdOpen(server.base, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", 5_000);
    expect(outcome.closed).toBe(true);
  });

  it("closes an idle keep-alive connection", async () => {
    const outcome = await holdOpen(server.base, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 5_000);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(outcome.closed).toBe(true);
  });
});

describe("the hub's path is routed as its body is handled (finding 8)", () => {
  let subscriber: HttpsSubscriber;
  let env: HubEnv;
  beforeAll(async () => {
    subscriber = await HttpsSubscriber.start();
    env = await startHubEnv({ dist: inject("sampleDist"), ca: subscriber.ca });
  });
  afterAll(async () => {
    await env.close();
    await subscriber.close();
  });

  it("answers case and trailing-slash variants as unknown paths, with a chunked form body", async () => {
    const form = new URLSearchParams({ "hub.mode": "publish", "hub.url": TOPICS.atom }).toString();
    const headers = { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" };
    for (const path of ["/api/websub/HUB", "/API/websub/hub", "/api/websub/hub/"]) {
      const reply = await sendRaw(env.base, "POST", path, headers, form);
      expect(reply.status, path).toBe(404);
      expect(JSON.parse(reply.body.toString()), path).toMatchObject({ error: "not_found" });
    }
    const exact = await sendRaw(env.base, "POST", "/api/websub/hub", headers, form);
    expect(exact.status).not.toBe(404);
    expect(exact.status).not.toBe(415);
  });
});
