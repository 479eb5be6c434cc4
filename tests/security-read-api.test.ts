/**
 * Issue 20's read-API findings, each attack scaled down to test size, against the app on a loopback
 * port: error answers that amplify (3), the per-client rate limit (3), the CORS preflight of a
 * document for a conditional GET (10), and the configuration of these limits.
 */

import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import { ConfigError, parseConfig } from "@riverbend/shared/config/parse-config.ts";
import { ErrorResponseSchema, MAX_LISTED_ISSUES } from "@riverbend/shared/schemas/errors.ts";
import { decodeQuery, MAX_QUERY_PARAMETERS } from "@riverbend/shared/search/query-string.ts";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listen } from "./support/http.ts";

const SITE = "https://reviews.test";
const silent = pino({ level: "silent" });
type Server = Awaited<ReturnType<typeof listen>>;
let store: BundleStore;
const servers: Server[] = [];

/** The shared build served with these settings (closed after the file's tests). */
async function serve(config: Record<string, unknown> = {}): Promise<Server> {
  const server = await listen(
    createApp({ config: { SITE_URL: SITE, SERVE_STATIC: true, ...config }, store, logger: silent }),
  );
  servers.push(server);
  return server;
}

beforeAll(() => {
  store = new BundleStore(inject("sampleDist"), silent);
});
afterAll(() => Promise.all(servers.map((server) => server.close())));

describe("error answers stay small and cheap (finding 3)", () => {
  it("answers 4,000 unknown parameters with a small 400 listing the first problems and counting the rest", async () => {
    const server = await serve();
    // 4,000 distinct two-character names, as in the attack (an 11.6 KB request).
    const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const query = Array.from({ length: 4_000 }, (_, i) => `${chars[i % 62]}${chars[Math.floor(i / 62)]}`).join("&");
    const response = await fetch(`${server.base}/api/reviews/search?${query}`);
    expect(response.status).toBe(400);
    const text = await response.text();
    // The attack: an 11.6 KB request answered with 1.16 MB.
    expect(text.length).toBeLessThan(4_096);
    const body = ErrorResponseSchema.parse(JSON.parse(text));
    expect(body.issues?.length).toBe(MAX_LISTED_ISSUES);
    expect(body.more_issues).toBeGreaterThan(0);
    expect(body.issues?.[0]).toMatchObject({ path: "(query string)", code: "too_many_parameters" });
    expect(body.message).toMatch(/^Invalid parameters \(\d+ problems\): .*; and \d+ more$/);
  });

  it("reads no more than MAX_QUERY_PARAMETERS parameters of a query string", () => {
    const raw = Array.from({ length: 10_000 }, (_, i) => `x${i}=1`).join("&");
    const { issues } = decodeQuery(raw, ["limit"]);
    expect(issues.filter((issue) => issue.code === "unrecognized")).toHaveLength(MAX_QUERY_PARAMETERS);
    expect(issues.filter((issue) => issue.code === "too_many_parameters")).toHaveLength(1);
  });

  it("clips a long unknown parameter name in the answer", async () => {
    const server = await serve();
    const response = await fetch(`${server.base}/api/reviews/search?${"n".repeat(8_000)}=1`);
    const body = ErrorResponseSchema.parse(await response.json());
    expect(body.issues?.[0]?.path.length).toBeLessThanOrEqual(120);
  });

  it("still lists every problem of an ordinary bad request", async () => {
    const server = await serve();
    const response = await fetch(`${server.base}/api/reviews/search?limit=0&min_ratting=4`);
    const body = ErrorResponseSchema.parse(await response.json());
    expect(body.issues?.map((issue) => issue.path).sort()).toEqual(["limit", "min_ratting"]);
    expect(body.more_issues).toBeUndefined();
  });
});

describe("the read API's per-client rate limit (finding 3)", () => {
  const search = (base: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/reviews/search?limit=1`, { headers });

  it("answers past the limit with 429, Retry-After and a JSON error, sharing one budget with the documents", async () => {
    const server = await serve({ READ_RATE_LIMIT_PER_MINUTE: 4 });
    for (let i = 0; i < 2; i++) expect((await search(server.base)).status).toBe(200);
    expect((await fetch(`${server.base}/api/reviews/since/2020-01-01`)).status).toBe(200);
    expect((await fetch(`${server.base}/reviews.json`)).status).toBe(200);
    for (const path of ["/api/reviews/search?limit=1", "/reviews.json", "/feed.xml"]) {
      const refused = await fetch(`${server.base}${path}`);
      expect(refused.status, path).toBe(429);
      expect(Number(refused.headers.get("retry-after")), path).toBeGreaterThan(0);
      expect(refused.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(ErrorResponseSchema.parse(await refused.json()), path).toMatchObject({ error: "too_many_requests" });
    }
    // Probes and metrics are not read traffic.
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
  });

  it("ignores X-Forwarded-For without a trusted proxy: a client cannot pose as many", async () => {
    const server = await serve({ READ_RATE_LIMIT_PER_MINUTE: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await search(server.base, { "X-Forwarded-For": `203.0.113.${i}` })).status);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it("keys on X-Forwarded-For behind a trusted proxy (TRUST_PROXY)", async () => {
    const config = parseConfig({ TRUST_PROXY: "loopback", READ_RATE_LIMIT_PER_MINUTE: "2" });
    const server = await serve({ TRUST_PROXY: config.TRUST_PROXY, READ_RATE_LIMIT_PER_MINUTE: 2 });
    const one = { "X-Forwarded-For": "203.0.113.1" };
    const other = { "X-Forwarded-For": "203.0.113.2" };
    expect([(await search(server.base, one)).status, (await search(server.base, one)).status]).toEqual([200, 200]);
    expect((await search(server.base, one)).status).toBe(429);
    expect((await search(server.base, other)).status).toBe(200);
  });

  it("is off with READ_RATE_LIMIT_PER_MINUTE=0", async () => {
    const server = await serve({ READ_RATE_LIMIT_PER_MINUTE: 0 });
    for (let i = 0; i < 30; i++) expect((await search(server.base)).status).toBe(200);
  });
});

describe("the CORS preflight of a document (finding 10)", () => {
  it("allows a conditional GET's headers from another origin", async () => {
    const server = await serve();
    const response = await fetch(`${server.base}/reviews.json`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://elsewhere.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match, if-modified-since",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const allowed = (response.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["if-none-match", "if-modified-since"]));
  });
});

describe("configuration of the limits", () => {
  const problems = (env: Record<string, string>) => {
    try {
      parseConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems.join("\n");
      throw error;
    }
    return "";
  };

  it("has generous defaults", () => {
    const config = parseConfig({});
    expect(config.READ_RATE_LIMIT_PER_MINUTE).toBe(1_200);
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.HTTP_REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(config.HTTP_HEADERS_TIMEOUT_MS).toBe(10_000);
    expect(config.HTTP_KEEP_ALIVE_TIMEOUT_MS).toBe(5_000);
  });

  it("names the variable of a bad value", () => {
    expect(problems({ READ_RATE_LIMIT_PER_MINUTE: "-1" })).toMatch(/^READ_RATE_LIMIT_PER_MINUTE: .*0 to disable/);
    expect(problems({ TRUST_PROXY: "true" })).toMatch(/^TRUST_PROXY: must be a number of proxy hops/);
    expect(problems({ HTTP_REQUEST_TIMEOUT_MS: "0" })).toMatch(/^HTTP_REQUEST_TIMEOUT_MS: /);
    expect(problems({ HTTP_HEADERS_TIMEOUT_MS: "40000" })).toMatch(
      /^HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS \(30000\)/,
    );
  });

  it("reads TRUST_PROXY as hops or as proxy addresses", () => {
    expect(parseConfig({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseConfig({ TRUST_PROXY: "10.0.0.0/8, loopback" }).TRUST_PROXY).toEqual(["10.0.0.0/8", "loopback"]);
  });
});

describe("the read API's answer caches (finding 1, on HTTP)", () => {
  it("keep no answer to a padded request target, and count the targets they keep", async () => {
    const server = await serve();
    const technician = store.current.index.business.technicians[0]?.name ?? "";
    // Valid, and 8 KB long: spaces around a name are trimmed.
    const padded = `/api/reviews/search?mentions_technician=${"%20".repeat(2_700)}${encodeURIComponent(technician)}`;
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.base}${padded}`)).status).toBe(200);
    const { answers, askedOnce } = store.current;
    expect(answers.has(padded) || askedOnce.has(padded)).toBe(false);
    const short = "/api/reviews/search?limit=2&sort=oldest";
    for (let i = 0; i < 2; i++) expect((await fetch(`${server.base}${short}`)).status).toBe(200);
    const kept = answers.get(short);
    expect(kept).toBeDefined();
    if (!kept) return;
    expect(answers.sizeCalculation?.(kept, short)).toBe(
      short.length + kept.body.length + (kept.gzip?.length ?? 0) + 512,
    );
  });
});

describe("unknown values in errors (finding 3)", () => {
  it("echo a long technician name clipped, without comparing it to every known name", async () => {
    const server = await serve();
    const response = await fetch(`${server.base}/api/reviews/search?mentions_technician=${"z".repeat(6_000)}`);
    const body = ErrorResponseSchema.parse(await response.json());
    expect(body.issues?.[0]).toMatchObject({ path: "mentions_technician", code: "unknown_value" });
    expect(body.issues?.[0]?.message).toMatch(/^"z{59}…" is not known; valid values: /);
  });
});
