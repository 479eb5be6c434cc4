/**
 * Issue 20's findings on MCP session revocation (9), and on credentials in logs and their
 * comparison (4): the attacks scaled down to test size.
 */

import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import { sameSecret } from "@riverbend/server/http/same-secret.ts";
import { createLogger } from "@riverbend/server/logging/create-logger.ts";
import { RevokedIds } from "@riverbend/server/mcp/revoked-ids.ts";
import { SessionTokens } from "@riverbend/server/mcp/session-tokens.ts";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listen } from "./support/http.ts";

const SECRET = "sessions-test-secret-0123456789abcdef";

describe("a terminated MCP session never comes back (finding 9)", () => {
  it("stays refused after other terminations evict it from the process's memory", () => {
    let clock = Date.UTC(2026, 10, 26, 12);
    const tokens = new SessionTokens(SECRET, 3600, () => clock, undefined, 3);
    const victim = tokens.issue();
    expect(tokens.check(victim)).toBe("valid");
    tokens.terminate(victim);
    expect(tokens.check(victim)).toBe("unknown");
    // Scaled down: 3 remembered ids instead of 100,000, and 10 other sessions terminated after it.
    for (let i = 0; i < 10; i++) {
      clock += 1_000;
      tokens.terminate(tokens.issue());
    }
    expect(tokens.check(victim)).toBe("unknown");
    // Sessions issued after every forgotten one stay valid.
    clock += 1_000;
    const later = tokens.issue();
    expect(tokens.check(later)).toBe("valid");
  });

  it("refuses, once an id is forgotten, every id issued up to it, and no later one", () => {
    const revoked = new RevokedIds(2);
    const id = (issued: number, n: number) => `${issued}.${issued + 3600}.nonce${n}.sig`;
    const terminate = (issued: number, n: number) => revoked.add(id(issued, n), (issued + 3600) * 1000, 100_000);
    terminate(100, 1);
    terminate(200, 2);
    expect(revoked.has(id(150, 9))).toBe(false);
    terminate(300, 3);
    expect(revoked.has(id(100, 1))).toBe(true);
    expect(revoked.has(id(99, 8))).toBe(true);
    expect(revoked.has(id(150, 9))).toBe(false);
    expect(revoked.has(id(200, 2))).toBe(true);
  });
});

describe("credentials in logs and their comparison (finding 4)", () => {
  const TOKEN = "metrics-token-0123456789-SECRET";
  let lines: string[];
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    lines = [];
    const sink = { write: (chunk: string) => lines.push(chunk), flushSync: () => {} };
    const logger = createLogger({ format: "json", level: "info" }, sink);
    const store = new BundleStore(inject("sampleDist"), pino({ level: "silent" }));
    server = await listen(
      createApp({
        config: { SITE_URL: "https://reviews.test", SERVE_STATIC: true, METRICS_TOKEN: TOKEN },
        store,
        logger,
      }),
    );
  });
  afterAll(() => server.close());

  it("redacts authorization, cookies and fields named like secrets from every line", async () => {
    lines.length = 0;
    const sink = { write: (chunk: string) => lines.push(chunk), flushSync: () => {} };
    const logger = createLogger({ format: "json", level: "info" }, sink);
    const headers = { authorization: `Bearer ${TOKEN}`, cookie: `sid=${TOKEN}`, "x-request-id": "r1" };
    logger.info({ headers }, "headers at the top");
    logger.warn({ err: Object.assign(new Error("call failed"), { headers, token: TOKEN }) }, "an error with headers");
    logger.warn({ err: { response: { headers: { "set-cookie": TOKEN } } }, secret: TOKEN }, "a response");
    logger.info({ "hub.secret": TOKEN, password: TOKEN }, "fields");
    await new Promise((resolve) => setImmediate(resolve));
    const text = lines.join("");
    expect(text.split("\n").filter(Boolean)).toHaveLength(4);
    expect(text).not.toContain(TOKEN);
    expect(text).toContain("[Redacted]");
    expect(text).toContain('"x-request-id":"r1"');
  });

  it("writes no token a client sends into the access log, right or wrong", async () => {
    lines.length = 0;
    for (const token of [TOKEN, `${TOKEN}x`, "guess-0123456789abcdef"]) {
      await fetch(`${server.base}/metrics`, { headers: { Authorization: `Bearer ${token}`, Cookie: `s=${token}` } });
      await fetch(`${server.base}/api/reviews/search?limit=1`, { headers: { Authorization: `Bearer ${token}` } });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = lines.join("");
    expect(text).toContain("request completed");
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("guess-0123456789abcdef");
  });

  it("compares every token in constant time, whatever the given one's length", () => {
    expect(sameSecret(`Bearer ${TOKEN}`, `Bearer ${TOKEN}`)).toBe(true);
    for (const given of ["", "Bearer", `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, "x".repeat(10_000)]) {
      expect(sameSecret(given, `Bearer ${TOKEN}`)).toBe(false);
    }
  });
});
