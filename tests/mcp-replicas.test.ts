/**
 * MCP across real sidecar processes: a 2025 session minted by one replica is served by another with
 * the same MCP_SESSION_SECRET, and by a restarted replica; a process without the secret refuses it.
 * Requests of the current revision (2026-07-28) need nothing shared at all: two replicas without a
 * secret answer them interchangeably.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { MCP_CURRENT_REVISION } from "@riverbend/shared/mcp-catalog/protocol.ts";
import { TOOL_NAMES } from "@riverbend/shared/mcp-catalog/tool-catalog.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { postModern } from "./support/mcp-modern.ts";
import { initializeRaw, postMcp, type RpcReply, sessionRequest } from "./support/mcp-rpc.ts";
import { type SidecarProcess, startSidecar, stopAll } from "./support/mcp-sidecar.ts";
import { databaseUrlFor, dropSchema, hasDatabase } from "./support/test-database.ts";

const SECRET = "replica-test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
const running = new Set<SidecarProcess>();
let stateRoot: string;
/** With a test database, A and B share it (DATABASE_URL), as replicas behind one load balancer do. */
const SCHEMA_KEY = `mcp-replicas-${process.pid}-${Date.now()}`;
let databaseUrl: string | undefined;

/** Environment of one replica; each gets its own state directory (the WebSub hub keeps a file there). */
function replicaEnv(withSecret: boolean): Record<string, string> {
  const env: Record<string, string> = {
    DIST_DIR: inject("sampleDist"),
    SITE_URL: "https://reviews.test",
    LOG_LEVEL: "silent",
    STATE_DIR: mkdtempSync(path.join(stateRoot, "state-")),
  };
  if (withSecret) env.MCP_SESSION_SECRET = SECRET;
  if (withSecret && databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

/** The environment without a secret must really not carry one from the parent process. */
function withoutInheritedSecret<T>(run: () => T): T {
  const saved = process.env.MCP_SESSION_SECRET;
  delete process.env.MCP_SESSION_SECRET;
  try {
    return run();
  } finally {
    if (saved !== undefined) process.env.MCP_SESSION_SECRET = saved;
  }
}

const getReview = (base: string, session: string, id: number | string, reviewId: string) =>
  sessionRequest(base, session, {
    id,
    method: "tools/call",
    params: { name: "get_review", arguments: { id: reviewId } },
  });

function expectSessionRefused(reply: RpcReply) {
  expect(reply.status, reply.text).toBe(404);
  expect(reply.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32001 } });
}

let a: SidecarProcess;
let b: SidecarProcess;
let reviewId: string;

beforeAll(async () => {
  stateRoot = mkdtempSync(path.join(tmpdir(), "mcp-replicas-"));
  if (hasDatabase) databaseUrl = await databaseUrlFor(SCHEMA_KEY);
  [a, b] = await Promise.all([startSidecar(replicaEnv(true), running), startSidecar(replicaEnv(true), running)]);
  const search = await fetch(`${a.base}/api/reviews/search?limit=1`);
  reviewId = ((await search.json()) as { reviews: { id: string }[] }).reviews[0]?.id ?? "";
  expect(reviewId).not.toBe("");
});

afterAll(async () => {
  await stopAll(running);
  if (stateRoot) rmSync(stateRoot, { recursive: true, force: true });
  await dropSchema(SCHEMA_KEY);
});

describe("MCP sessions across sidecar processes", () => {
  it("serves a session initialized on replica A from replica B (same secret)", async () => {
    expect(a.base).not.toBe(b.base);
    const { session, reply } = await initializeRaw(a.base, "2025-06-18");
    expect(reply.json?.result.protocolVersion).toBe("2025-06-18");

    const initialized = await postMcp(
      b.base,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" },
    );
    expect(initialized.status).toBe(202);
    const call = await getReview(b.base, session, 2, reviewId);
    expect(call.status, call.text).toBe(200);
    expect(call.json?.result.structuredContent.review.id).toBe(reviewId);
    const list = await sessionRequest(b.base, session, { id: 3, method: "tools/list" });
    expect(list.status).toBe(200);
    expect(list.json?.result.tools).toHaveLength(5);
    // And back on A.
    expect((await getReview(a.base, session, 4, reviewId)).status).toBe(200);
  });

  it("keeps serving the session after replica A is stopped and started again on a new port", async () => {
    const { session } = await initializeRaw(a.base, "2025-11-25");
    const oldBase = a.base;
    expect(await a.stop()).toBe(0);
    await expect(fetch(`${oldBase}/healthz`)).rejects.toThrow();

    // B keeps serving while A is down.
    expect((await getReview(b.base, session, 1, reviewId)).status).toBe(200);

    a = await startSidecar(replicaEnv(true), running);
    expect(a.base).not.toBe(oldBase);
    const call = await getReview(a.base, session, 2, reviewId);
    expect(call.status, call.text).toBe(200);
    expect(call.json?.result.structuredContent.review.id).toBe(reviewId);
    const search = await sessionRequest(a.base, session, {
      id: 3,
      method: "tools/call",
      params: { name: "search_reviews", arguments: { limit: 2 } },
    });
    expect(search.status).toBe(200);
    expect(search.json?.result.structuredContent.count).toBe(2);
  });

  it("refuses (404) in a process without the secret a session another process issued, and vice versa", async () => {
    const c = await withoutInheritedSecret(() => startSidecar(replicaEnv(false), running));
    try {
      const { session } = await initializeRaw(a.base);
      expectSessionRefused(await getReview(c.base, session, 1, reviewId));

      // C's own sessions work on C only.
      const { session: own } = await initializeRaw(c.base);
      expect((await getReview(c.base, own, 2, reviewId)).status).toBe(200);
      expectSessionRefused(await getReview(a.base, own, 3, reviewId));
      expectSessionRefused(await getReview(b.base, own, 4, reviewId));
    } finally {
      await c.stop();
    }
  });

  it("refuses a session terminated (DELETE) on the replica that got the DELETE", async () => {
    const { session } = await initializeRaw(a.base);
    const deleted = await fetch(`${a.base}/mcp`, { method: "DELETE", headers: { "Mcp-Session-Id": session } });
    expect(deleted.status).toBe(200);
    expectSessionRefused(await getReview(a.base, session, 1, reviewId));
  });

  // With a shared database the DELETE is recorded there and announced (NOTIFY) to every replica;
  // B learns of it within the notification's latency, so B is polled briefly rather than hit at once.
  it.runIf(hasDatabase)("refuses a session terminated on replica A on replica B too (shared database)", async () => {
    const { session } = await initializeRaw(a.base);
    expect((await getReview(b.base, session, 1, reviewId)).status).toBe(200);
    const deleted = await fetch(`${a.base}/mcp`, { method: "DELETE", headers: { "Mcp-Session-Id": session } });
    expect(deleted.status).toBe(200);
    await expect.poll(async () => (await getReview(b.base, session, 2, reviewId)).status, { timeout: 2000 }).toBe(404);
    expectSessionRefused(await getReview(b.base, session, 3, reviewId));
    expectSessionRefused(await getReview(a.base, session, 4, reviewId));
  });

  it.runIf(hasDatabase)(
    "still refuses a terminated session after both replicas restart (shared database)",
    async () => {
      const { session } = await initializeRaw(b.base);
      const deleted = await fetch(`${b.base}/mcp`, { method: "DELETE", headers: { "Mcp-Session-Id": session } });
      expect(deleted.status).toBe(200);
      await expect
        .poll(async () => (await getReview(a.base, session, 1, reviewId)).status, { timeout: 2000 })
        .toBe(404);
      await Promise.all([a.stop(), b.stop()]);
      [a, b] = await Promise.all([startSidecar(replicaEnv(true), running), startSidecar(replicaEnv(true), running)]);
      expectSessionRefused(await getReview(a.base, session, 2, reviewId));
      expectSessionRefused(await getReview(b.base, session, 3, reviewId));
      // A session that was not terminated is still served by the restarted replicas.
      const { session: open } = await initializeRaw(a.base);
      expect((await getReview(b.base, open, 4, reviewId)).status).toBe(200);
    },
  );
});

describe("MCP 2026-07-28 across sidecar processes that share nothing", () => {
  it("answers the same self-describing request with the same result on either replica", async () => {
    const [c, d] = await withoutInheritedSecret(() =>
      Promise.all([startSidecar(replicaEnv(false), running), startSidecar(replicaEnv(false), running)]),
    );
    try {
      const params = { name: "get_review", arguments: { id: reviewId } };
      const [onC, onD] = await Promise.all([
        postModern(c.base, "tools/call", params, {}, 1),
        postModern(d.base, "tools/call", params, {}, 1),
      ]);
      expect(onC.status).toBe(200);
      expect(onC.headers.get("mcp-session-id")).toBeNull();
      expect(onD.json).toEqual(onC.json);
    } finally {
      await Promise.all([c.stop(), d.stop()]);
    }
  });

  it("serves a pinned v2 client whose requests alternate between two replicas", async () => {
    const [c, d] = await withoutInheritedSecret(() =>
      Promise.all([startSidecar(replicaEnv(false), running), startSidecar(replicaEnv(false), running)]),
    );
    const served: string[] = [];
    // A load balancer in miniature: every request goes to the other replica than the one before.
    const alternate: typeof fetch = (input, init) => {
      const base = served.length % 2 === 0 ? c.base : d.base;
      served.push(base);
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(`${base}${url.pathname}`, init);
    };
    const client = new Client(
      { name: "replica-test", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: MCP_CURRENT_REVISION } } },
    );
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${c.base}/mcp`), { fetch: alternate }));
      expect(client.getProtocolEra()).toBe("modern");
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual([...TOOL_NAMES]);
      for (const name of ["get_business", "get_review", "get_reviews_since"]) {
        const args =
          name === "get_review" ? { id: reviewId } : name === "get_reviews_since" ? { date: "2026-01-01" } : {};
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError, name).toBeFalsy();
      }
      const [doc] = (await client.readResource({ uri: "https://reviews.test/reviews.json" })).contents;
      expect(doc?.uri).toBe("https://reviews.test/reviews.json");
      expect(new Set(served)).toEqual(new Set([c.base, d.base]));
      expect(served.length).toBeGreaterThanOrEqual(6);
    } finally {
      await client.close();
      await Promise.all([c.stop(), d.stop()]);
    }
  });

  it("closes an open subscriptions/listen stream on SIGTERM and exits cleanly, well before the shutdown deadline", async () => {
    const e = await startSidecar({ ...replicaEnv(false), SHUTDOWN_TIMEOUT_MS: "20000" }, running);
    const client = new Client(
      { name: "shutdown-test", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: MCP_CURRENT_REVISION } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${e.base}/mcp`)));
    const subscription = await client.listen({ resourceSubscriptions: ["https://reviews.test/reviews.json"] });
    const started = Date.now();
    const code = await e.stop(25_000);
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await subscription.closed).not.toBe("local");
    await client.close();
  });
});
