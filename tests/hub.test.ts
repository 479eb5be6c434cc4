/**
 * WebSub hub, intake and verification of intent (W3C REC 2018-01-23 §5.1–§5.3): the hub runs as in
 * production (Hub + SqliteHubStore + GuardedClient mounted by createApp) against a local HTTPS
 * subscriber whose certificate comes from a CA made at test time. Deliveries are in
 * hub-delivery.test.ts. Background and decisions: /work/shared/notes/websub.md.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { HttpsSubscriber, NEVER_PATH, type RecordedRequest } from "./support/https-subscriber.ts";
import { ALL_TOPICS, type HubEnv, type HubEnvOptions, LEASE, startHubEnv, TOPICS } from "./support/hub-env.ts";

let sub: HttpsSubscriber;
let env: HubEnv;
const extraEnvs: HubEnv[] = [];

beforeAll(async () => {
  sub = await HttpsSubscriber.start();
});
afterAll(async () => {
  await sub.close();
});
beforeEach(async () => {
  env = await startHubEnv({ dist: inject("sampleDist"), ca: sub.ca });
});
afterEach(async () => {
  sub.release("ok");
  await Promise.all([env, ...extraEnvs.splice(0)].map((e) => e.close()));
});

/** Another hub for one test, closed after it. */
async function otherEnv(options: Partial<HubEnvOptions>): Promise<HubEnv> {
  const other = await startHubEnv({ dist: inject("sampleDist"), ca: sub.ca, ...options });
  extraEnvs.push(other);
  return other;
}

let pathCount = 0;
/** A callback path no other test uses. */
const fresh = (name = "cb") => `/intake-${++pathCount}/${name}`;

const subscribeForm = (topic: string, callback: string, extra: Record<string, string> = {}) => ({
  "hub.mode": "subscribe",
  "hub.topic": topic,
  "hub.callback": callback,
  ...extra,
});

/** Counts the hub's outbound requests (verification, delivery, denial) from now on. */
function countOutbound(target: HubEnv = env) {
  return vi.spyOn(target.client, "send");
}

function expectPlainText(response: { type: string | null; text: string }) {
  expect(response.type).toMatch(/^text\/plain\b/);
  expect(response.text.length).toBeGreaterThan(0);
}

function expectVerification(request: RecordedRequest | undefined, topic: string, lease: number | undefined) {
  expect(request?.method).toBe("GET");
  const query = request?.query ?? new URLSearchParams();
  expect(query.getAll("hub.mode")).toEqual(["subscribe"]);
  expect(query.getAll("hub.topic")).toEqual([topic]);
  expect(query.getAll("hub.challenge")).toHaveLength(1);
  expect((query.get("hub.challenge") ?? "").length).toBeGreaterThanOrEqual(32);
  if (lease === undefined) expect(query.has("hub.lease_seconds")).toBe(false);
  else expect(query.getAll("hub.lease_seconds")).toEqual([String(lease)]);
  expect(request?.headers["user-agent"]).toBeTruthy();
}

describe("subscribing (§5.1, §5.3)", () => {
  it("answers 202, then verifies once with a fresh challenge and activates the subscription, on each topic", async () => {
    const challenges: string[] = [];
    for (const topic of ALL_TOPICS) {
      const path = fresh();
      const started = env.now();
      const response = await env.post(subscribeForm(topic, sub.url(path)));
      expect(response.status).toBe(202);
      expectPlainText(response);
      await env.hub.idle();
      const verifications = sub.to(path);
      expect(verifications).toHaveLength(1);
      expectVerification(verifications[0], topic, LEASE.defaultSeconds);
      challenges.push(verifications[0]?.query.get("hub.challenge") ?? "");
      expect(env.store.getSubscription(topic, sub.url(path))).toEqual({
        topic,
        callback: sub.url(path),
        secret: undefined,
        leaseSeconds: LEASE.defaultSeconds,
        expiresAt: started + LEASE.defaultSeconds * 1000,
        failures: 0,
      });
      expect(sub.deliveries(path)).toEqual([]);
    }
    // Re-subscribing verifies again, with yet another challenge.
    const again = fresh();
    for (let i = 0; i < 3; i++) {
      expect((await env.post(subscribeForm(TOPICS.reviews, sub.url(again)))).status).toBe(202);
      await env.hub.idle();
    }
    challenges.push(...sub.verifications(again).map((r) => r.query.get("hub.challenge") ?? ""));
    expect(challenges).toHaveLength(6);
    expect(new Set(challenges).size).toBe(6);
    expect(env.store.countSubscriptions()).toBe(4);
    expect(env.hub.outcomes).toMatchObject({ verified: 6, unverified: 0 });
  });

  it("answers 202 before verification and whatever its outcome (callback held, then 500)", async () => {
    const path = fresh();
    sub.on(path, { GET: "hold" });
    const response = await env.post(subscribeForm(TOPICS.atom, sub.url(path)));
    expect(response.status).toBe(202);
    await sub.waitFor(() => sub.heldCount === 1, 3000, "held verification");
    expect(env.store.getSubscription(TOPICS.atom, sub.url(path))).toBeUndefined();
    sub.release("error");
    await env.hub.idle();
    expect(env.store.getSubscription(TOPICS.atom, sub.url(path))).toBeUndefined();

    const failing = fresh();
    sub.on(failing, { GET: "error" });
    expect((await env.post(subscribeForm(TOPICS.atom, sub.url(failing)))).status).toBe(202);
    await env.hub.idle();
    expect(sub.to(failing)).toHaveLength(1);
    expect(env.store.countSubscriptions()).toBe(0);
    expect(env.hub.outcomes).toMatchObject({ verified: 0, unverified: 2 });
  });

  it.each([
    ["a wrong echo", "wrong-echo"],
    ["the challenge plus a newline", "echo-newline"],
    ["404", "not-found"],
    ["500", "error"],
    ["410", "gone"],
    ["a 302 (whose Location is never requested)", "redirect"],
  ] as const)("does not subscribe when the callback answers %s", async (_name, mode) => {
    const path = fresh();
    sub.on(path, { GET: mode });
    const response = await env.post(subscribeForm(TOPICS.jsonFeed, sub.url(path)));
    expect(response.status).toBe(202);
    await env.hub.idle();
    expect(sub.to(path)).toHaveLength(1);
    expectVerification(sub.to(path)[0], TOPICS.jsonFeed, LEASE.defaultSeconds);
    expect(sub.to(NEVER_PATH)).toEqual([]);
    expect(env.store.getSubscription(TOPICS.jsonFeed, sub.url(path))).toBeUndefined();
    expect(sub.deliveries(path)).toEqual([]);
  });

  it("gives up on a callback that never answers after the timeout, without a subscription", async () => {
    const path = fresh();
    sub.on(path, { GET: "hang" });
    const started = Date.now();
    expect((await env.post(subscribeForm(TOPICS.reviews, sub.url(path)))).status).toBe(202);
    await env.hub.idle();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThan(4000);
    expect(sub.to(path)).toHaveLength(1);
    expect(env.store.countSubscriptions()).toBe(0);
    expect(env.hub.outcomes.unverified).toBe(1);
  });

  it("keeps the callback's query byte for byte and appends the hub parameters with &", async () => {
    const path = fresh();
    const callback = sub.url(`${path}?tok=a/b&x=c%20d`);
    expect((await env.post(subscribeForm(TOPICS.reviews, callback))).status).toBe(202);
    await env.hub.idle();
    const [verification] = sub.to(path);
    expect(verification?.url.startsWith(`${path}?tok=a/b&x=c%20d&hub.mode=`)).toBe(true);
    expect(verification?.query.get("tok")).toBe("a/b");
    expect(verification?.query.get("x")).toBe("c d");
    expectVerification(verification, TOPICS.reviews, LEASE.defaultSeconds);
    expect(env.store.getSubscription(TOPICS.reviews, callback)?.callback).toBe(callback);

    // A callback ending in a bare "?" or "&" gets no second separator.
    for (const tail of ["?", "?a=1&"]) {
      const other = fresh();
      expect((await env.post(subscribeForm(TOPICS.reviews, sub.url(`${other}${tail}`)))).status).toBe(202);
      await env.hub.idle();
      expect(sub.to(other)[0]?.url).toMatch(new RegExp(`^${other}\\?(a=1&)?hub\\.mode=subscribe&`));
    }
  });

  // Regression: undici's request(url) parsed the callback with WHATWG URL and re-encoded "'" as %27,
  // against §5.1.1; the client now hands the raw path to the dispatcher.
  it("keeps an apostrophe in the callback query byte for byte", async () => {
    const path = fresh();
    expect((await env.post(subscribeForm(TOPICS.atom, sub.url(`${path}?q='x'`)))).status).toBe(202);
    await env.hub.idle();
    expect(sub.to(path)[0]?.url.startsWith(`${path}?q='x'&hub.mode=subscribe&`)).toBe(true);
  });

  it("ignores parameters it does not know (websub.rocks test 102)", async () => {
    const path = fresh();
    const form = `${new URLSearchParams(subscribeForm(TOPICS.atom, sub.url(path)))}&foo=bar&hub.foo=hub.bar&hub.verify=sync&hub.verify_token=x`;
    const response = await env.post(form);
    expect(response.status).toBe(202);
    await env.hub.idle();
    expect(sub.to(path)).toHaveLength(1);
    expectVerification(sub.to(path)[0], TOPICS.atom, LEASE.defaultSeconds);
    expect(sub.to(path)[0]?.query.has("foo")).toBe(false);
    expect(env.store.getSubscription(TOPICS.atom, sub.url(path))).toBeDefined();
  });

  it("keeps one subscription for two simultaneous requests for the same pair", async () => {
    const path = fresh();
    const [a, b] = await Promise.all([
      env.post(subscribeForm(TOPICS.reviews, sub.url(path))),
      env.post(subscribeForm(TOPICS.reviews, sub.url(path), { "hub.secret": "second" })),
    ]);
    expect([a.status, b.status]).toEqual([202, 202]);
    await env.hub.idle();
    expect(sub.verifications(path)).toHaveLength(2);
    expect(env.store.countSubscriptions()).toBe(1);
    expect(env.store.countSubscriptions({ callbackHost: `127.0.0.1:${sub.port}` })).toBe(1);
  });
});

describe("rejected requests: 4xx in plain text, no outbound request", () => {
  it("refuses callbacks that are not https, have user info or a fragment, or are too long", async () => {
    const outbound = countOutbound();
    const requests = sub.requests.length;
    const connections = sub.connections;
    const bad = [
      `http://127.0.0.1:${sub.port}${fresh()}`,
      `HTTP://127.0.0.1:${sub.port}${fresh()}`,
      `ftp://127.0.0.1/${fresh()}`,
      `https://user:pw@127.0.0.1:${sub.port}${fresh()}`,
      `https://user@127.0.0.1:${sub.port}${fresh()}`,
      `${sub.url(fresh())}#frag`,
      fresh(),
      "not a url",
      sub.url(`/${"a".repeat(2100)}`),
    ];
    for (const callback of bad) {
      const response = await env.post(subscribeForm(TOPICS.atom, callback));
      expect(response.status, callback).toBe(400);
      expectPlainText(response);
    }
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
    expect(sub.requests.length).toBe(requests);
    expect(sub.connections).toBe(connections);
    expect(env.store.countSubscriptions()).toBe(0);
  });

  it("refuses missing, empty, unknown and repeated fields", async () => {
    const outbound = countOutbound();
    const callback = sub.url(fresh());
    const ok = new URLSearchParams(subscribeForm(TOPICS.atom, callback)).toString();
    const cases: [string, string][] = [
      ["no mode", `hub.topic=${encodeURIComponent(TOPICS.atom)}&hub.callback=${encodeURIComponent(callback)}`],
      ["no topic", `hub.mode=subscribe&hub.callback=${encodeURIComponent(callback)}`],
      ["no callback", `hub.mode=subscribe&hub.topic=${encodeURIComponent(TOPICS.atom)}`],
      ["empty callback", `${ok.replace(/hub\.callback=[^&]*/, "hub.callback=")}`],
      ["empty mode", `${ok.replace("hub.mode=subscribe", "hub.mode=")}`],
      ["mode foo", `${ok.replace("hub.mode=subscribe", "hub.mode=foo")}`],
      ["mode in capitals", `${ok.replace("hub.mode=subscribe", "hub.mode=SUBSCRIBE")}`],
      ["empty body", ""],
      ["repeated topic", `${ok}&hub.topic=${encodeURIComponent(TOPICS.reviews)}`],
      ["repeated identical topic", `${ok}&hub.topic=${encodeURIComponent(TOPICS.atom)}`],
      ["repeated callback", `${ok}&hub.callback=${encodeURIComponent(sub.url(fresh()))}`],
      ["repeated mode", `${ok}&hub.mode=unsubscribe`],
      ["repeated secret", `${ok}&hub.secret=a&hub.secret=b`],
      ["repeated lease", `${ok}&hub.lease_seconds=100000&hub.lease_seconds=200000`],
    ];
    for (const [name, body] of cases) {
      const response = await env.post(body);
      expect(response.status, name).toBe(400);
      expectPlainText(response);
    }
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
  });

  it("accepts only the three self URLs exactly as advertised", async () => {
    const outbound = countOutbound();
    const topics = [
      "https://reviews.test/feed.xml/",
      "http://reviews.test/feed.xml",
      "https://reviews.test/feed.xml?x=1",
      "https://reviews.test/feed.xml#x",
      "https://REVIEWS.test/feed.xml",
      "https://reviews.test:443/feed.xml",
      "https://reviews.test//feed.xml",
      "https://reviews.test/api/feed.json/",
      "https://reviews.test/reviews.json?",
      "https://reviews.test/insights.json",
      "https://reviews.test/",
      "https://example.com/feed.xml",
      "/feed.xml",
    ];
    for (const topic of topics) {
      const response = await env.post(subscribeForm(topic, sub.url(fresh())));
      expect(response.status, topic).toBe(400);
      expectPlainText(response);
    }
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
  });

  it("answers 415 to anything but a form body, and 405 to other methods", async () => {
    const outbound = countOutbound();
    const form = subscribeForm(TOPICS.atom, sub.url(fresh()));
    const hubUrl = `${env.base}/api/websub/hub`;
    const attempts: [string, RequestInit][] = [
      ["JSON", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(form) }],
      [
        "text/plain",
        { method: "POST", headers: { "content-type": "text/plain" }, body: new URLSearchParams(form).toString() },
      ],
      ["no body", { method: "POST" }],
    ];
    for (const [name, init] of attempts) {
      const response = await fetch(hubUrl, init);
      expect(response.status, name).toBe(415);
      expect(response.headers.get("content-type"), name).toMatch(/^text\/plain/);
    }
    const get = await fetch(hubUrl);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    await get.text();
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
  });
});

describe("SSRF guard", () => {
  const literals = [
    "https://10.0.0.1/cb",
    "https://192.168.1.10/cb",
    "https://169.254.169.254/latest/meta-data/",
    "https://0.0.0.0/cb",
    "https://[::1]/cb",
    "https://[::ffff:7f00:1]/cb",
    "https://[::ffff:127.0.0.1]:8443/cb",
    "https://[::]/cb",
    "https://[fe80::1]/cb",
    "https://[fd00::1]/cb",
    "https://127.0.0.1/cb",
    "https://2130706433/cb",
    "https://0x7f.1/cb",
    "https://100.64.0.1/cb",
  ];

  it("refuses private, loopback and metadata IP literals with 400 before any request", async () => {
    const strict = await otherEnv({ allowedCidrs: [] });
    const outbound = countOutbound(strict);
    for (const callback of literals) {
      const response = await strict.post(subscribeForm(TOPICS.atom, callback));
      expect(response.status, callback).toBe(400);
      expectPlainText(response);
    }
    await strict.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
    expect(strict.store.countSubscriptions()).toBe(0);
  });

  it("allows loopback only when configured, and nothing else private even then", async () => {
    const outbound = countOutbound();
    for (const callback of [
      "https://10.0.0.1/cb",
      "https://169.254.169.254/",
      "https://0.0.0.0/cb",
      "https://[fd00::1]/",
    ]) {
      const response = await env.post(subscribeForm(TOPICS.atom, callback));
      expect(response.status, callback).toBe(400);
    }
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
  });

  it("accepts a host name that resolves to loopback (202) but never connects to it", async () => {
    const strict = await otherEnv({ allowedCidrs: [] });
    const connections = sub.connections;
    const requests = sub.requests.length;
    const path = fresh();
    const callback = `https://localhost:${sub.port}${path}`;
    const response = await strict.post(subscribeForm(TOPICS.reviews, callback));
    expect(response.status).toBe(202);
    await strict.hub.idle();
    expect(sub.connections).toBe(connections);
    expect(sub.requests.length).toBe(requests);
    expect(strict.store.getSubscription(TOPICS.reviews, callback)).toBeUndefined();
    expect(strict.hub.outcomes).toMatchObject({ verified: 0, unverified: 1 });
  });
});

describe("leases (§5.1 hub.lease_seconds, §5.3)", () => {
  it.each([
    ["absent", undefined, LEASE.defaultSeconds],
    ["within bounds", "100000", 100_000],
    ["below the minimum", "3600", LEASE.minSeconds],
    ["1", "1", LEASE.minSeconds],
    ["above the maximum", "99999999", LEASE.maxSeconds],
  ])("grants the lease when it is %s and tells it in the verification", async (_name, asked, granted) => {
    const path = fresh();
    const extra: Record<string, string> = asked === undefined ? {} : { "hub.lease_seconds": asked };
    const started = env.now();
    expect((await env.post(subscribeForm(TOPICS.atom, sub.url(path), extra))).status).toBe(202);
    await env.hub.idle();
    expectVerification(sub.to(path)[0], TOPICS.atom, granted);
    const subscription = env.store.getSubscription(TOPICS.atom, sub.url(path));
    expect(subscription?.leaseSeconds).toBe(granted);
    expect(subscription?.expiresAt).toBe(started + granted * 1000);
  });

  it("refuses leases that are not positive whole numbers", async () => {
    const outbound = countOutbound();
    for (const lease of ["abc", "-5", "1.5", "0", "1e6", " 100000", "0x10", "100000abc"]) {
      const response = await env.post(subscribeForm(TOPICS.atom, sub.url(fresh()), { "hub.lease_seconds": lease }));
      expect(response.status, lease).toBe(400);
      expectPlainText(response);
    }
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
  });
});

describe("secrets (§5.1 hub.secret)", () => {
  it.each([
    ["199 ASCII bytes", 202, "s".repeat(199)],
    ["99 × é and one ASCII byte (199 bytes)", 202, `${"é".repeat(99)}a`],
    ["200 ASCII bytes", 400, "s".repeat(200)],
    ["100 × é (200 bytes, 100 characters)", 400, "é".repeat(100)],
  ])("%s → %i", async (_name, status, secret) => {
    const outbound = countOutbound();
    const path = fresh();
    const response = await env.post(subscribeForm(TOPICS.atom, sub.url(path), { "hub.secret": secret }));
    expect(response.status).toBe(status);
    await env.hub.idle();
    if (status === 202) {
      expect(env.store.getSubscription(TOPICS.atom, sub.url(path))?.secret).toBe(secret);
    } else {
      expectPlainText(response);
      expect(outbound).not.toHaveBeenCalled();
    }
  });
});

describe("unsubscribing (§5.1, §5.3)", () => {
  it("verifies with hub.mode=unsubscribe and removes the subscription only when confirmed", async () => {
    const path = fresh();
    const callback = sub.url(path);
    expect((await env.post(subscribeForm(TOPICS.reviews, callback))).status).toBe(202);
    await env.hub.idle();
    expect(env.store.getSubscription(TOPICS.reviews, callback)).toBeDefined();

    // The subscriber disagrees (404): the subscription stays.
    sub.on(path, { GET: "not-found" });
    const refused = await env.post({
      "hub.mode": "unsubscribe",
      "hub.topic": TOPICS.reviews,
      "hub.callback": callback,
      "hub.lease_seconds": "abc",
    });
    expect(refused.status).toBe(202);
    await env.hub.idle();
    const [, unsubscribeCheck] = sub.to(path);
    expect(unsubscribeCheck?.query.get("hub.mode")).toBe("unsubscribe");
    expect(unsubscribeCheck?.query.get("hub.topic")).toBe(TOPICS.reviews);
    expect((unsubscribeCheck?.query.get("hub.challenge") ?? "").length).toBeGreaterThanOrEqual(32);
    expect(unsubscribeCheck?.query.has("hub.lease_seconds")).toBe(false);
    expect(env.store.getSubscription(TOPICS.reviews, callback)).toBeDefined();

    sub.on(path, { GET: "echo" });
    expect(
      (await env.post({ "hub.mode": "unsubscribe", "hub.topic": TOPICS.reviews, "hub.callback": callback })).status,
    ).toBe(202);
    await env.hub.idle();
    expect(sub.to(path)).toHaveLength(3);
    expect(sub.to(path)[2]?.query.get("hub.mode")).toBe("unsubscribe");
    expect(env.store.getSubscription(TOPICS.reviews, callback)).toBeUndefined();
  });
});

describe("rate limits and caps", () => {
  it("answers 429 with Retry-After past the per-address limit, without an outbound request", async () => {
    const limited = await otherEnv({ routes: { ratePerMinute: 3 } });
    const outbound = countOutbound(limited);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await limited.post(subscribeForm(TOPICS.atom, `http://127.0.0.1/${i}`))).status);
    }
    expect(statuses).toEqual([400, 400, 400]);
    const path = fresh();
    const response = await limited.post(subscribeForm(TOPICS.atom, sub.url(path)));
    expect(response.status).toBe(429);
    expect(response.type).toMatch(/^text\/plain/);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(response.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    const publish = await limited.post({ "hub.mode": "publish", "hub.url": TOPICS.atom });
    expect(publish.status).toBe(429);
    await limited.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
    expect(sub.to(path)).toEqual([]);
  });

  it("answers 429 with Retry-After past the per-callback-host limit; other hosts go on", async () => {
    const limited = await otherEnv({ routes: { callbackHostRatePerMinute: 2 } });
    const paths = [fresh(), fresh(), fresh()];
    const statuses: number[] = [];
    for (const path of paths) statuses.push((await limited.post(subscribeForm(TOPICS.atom, sub.url(path)))).status);
    expect(statuses).toEqual([202, 202, 429]);
    const third = await limited.post(subscribeForm(TOPICS.atom, sub.url(fresh())));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expectPlainText(third);
    // The host is compared case-insensitively, so capitals do not get around it.
    expect((await limited.post(subscribeForm(TOPICS.atom, `https://LOCALHOST:${sub.port}/x`))).status).toBe(202);
    expect((await limited.post(subscribeForm(TOPICS.atom, `https://localhost:${sub.port}/y`))).status).toBe(202);
    expect((await limited.post(subscribeForm(TOPICS.atom, `https://localhost:${sub.port}/z`))).status).toBe(429);
    await limited.hub.idle();
    expect(sub.to(paths[0] ?? "")).toHaveLength(1);
    expect(sub.to(paths[2] ?? "")).toEqual([]);
  });

  it("refuses new subscriptions past the per-host cap with 403", async () => {
    const capped = await otherEnv({ caps: { perHost: 2, total: 100_000 } });
    for (const path of [fresh(), fresh()]) {
      expect((await capped.post(subscribeForm(TOPICS.atom, sub.url(path)))).status).toBe(202);
      await capped.hub.idle();
    }
    const outbound = countOutbound(capped);
    const refused = await capped.post(subscribeForm(TOPICS.atom, sub.url(fresh())));
    expect(refused.status).toBe(403);
    expectPlainText(refused);
    expect(outbound).not.toHaveBeenCalled();
    expect(capped.store.countSubscriptions()).toBe(2);
  });

  // Regression: the caps once counted only verified subscriptions, so a callback host that delayed
  // its echo could collect any number of them. Pending verifications now count, and the cap is
  // checked again when a verified subscription is stored.
  it("holds the per-host cap when the callback host delays its verification answers", async () => {
    const capped = await otherEnv({ caps: { perHost: 2, total: 100_000 } });
    const paths = [fresh(), fresh(), fresh(), fresh(), fresh()];
    const statuses: number[] = [];
    for (const path of paths) {
      sub.on(path, { GET: "hold" });
      statuses.push((await capped.post(subscribeForm(TOPICS.atom, sub.url(path)))).status);
    }
    await sub.waitFor(() => sub.heldCount === statuses.filter((s) => s === 202).length, 3000, "held verifications");
    sub.release("echo");
    await capped.hub.idle();
    expect(capped.store.countSubscriptions({ callbackHost: `127.0.0.1:${sub.port}` })).toBeLessThanOrEqual(2);
  });
});

describe("publish pings (§6)", () => {
  it("is a no-op when nothing changed", async () => {
    const path = fresh();
    expect((await env.post(subscribeForm(TOPICS.atom, sub.url(path)))).status).toBe(202);
    await env.hub.idle();
    const outbound = countOutbound();
    for (const form of [
      { "hub.mode": "publish", "hub.url": TOPICS.atom },
      { "hub.mode": "publish", "hub.topic": TOPICS.atom },
    ]) {
      const response = await env.post(form);
      expect(response.status).toBe(202);
      expectPlainText(response);
    }
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
    expect(sub.deliveries(path)).toEqual([]);
    expect(env.store.pendingCount()).toBe(0);
  });

  it("refuses foreign URLs and, when a token is configured, pings without the bearer token (401)", async () => {
    const token = "publish-token-0123456789";
    const guarded = await otherEnv({ routes: { publishToken: token } });
    const outbound = countOutbound(guarded);
    const ping = { "hub.mode": "publish", "hub.url": TOPICS.reviews };
    for (const headers of [{}, { authorization: "Bearer wrong-token-0123456789" }, { authorization: token }]) {
      const response = await guarded.post(ping, headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expectPlainText(response);
    }
    const accepted = await guarded.post(ping, { authorization: `Bearer ${token}` });
    expect(accepted.status).toBe(202);
    for (const url of [
      "https://example.com/feed.xml",
      `${sub.url("/publish")}`,
      "https://reviews.test/insights.json",
    ]) {
      const response = await guarded.post(
        { "hub.mode": "publish", "hub.url": url },
        { authorization: `Bearer ${token}` },
      );
      expect(response.status, url).toBe(400);
    }
    await guarded.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
    expect(sub.to("/publish")).toEqual([]);
  });
});
