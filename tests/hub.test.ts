/**
 * WebSub hub, intake and verification of intent (W3C REC 2018-01-23 §5.1–§5.3): subscribing, the
 * lease and secret a subscriber may ask for, and unsubscribing. The hub runs as in production
 * against a local HTTPS subscriber (see support/hub-routes-intake.ts). Refused requests are in
 * hub-rejections.test.ts, rate limits, caps and publish pings in hub-limits.test.ts, deliveries in
 * hub-delivery-content.test.ts and hub-delivery-reliability.test.ts. Background and decisions: /work/shared/notes/websub.md.
 */
import { describe, expect, it } from "vitest";
import { NEVER_PATH } from "./support/https-subscriber.ts";
import { ALL_TOPICS, LEASE, TOPICS } from "./support/hub-env.ts";
import {
  countOutbound,
  env,
  expectPlainText,
  expectVerification,
  fresh,
  setupHubIntake,
  sub,
  subscribeForm,
} from "./support/hub-routes-intake.ts";

setupHubIntake();

/** The lease runs from the verification, which happened between `started` and now. */
function expectLeaseEnd(expiresAt: number | undefined, started: number, seconds: number) {
  expect(expiresAt).toBeGreaterThanOrEqual(started + seconds * 1000);
  expect(expiresAt).toBeLessThanOrEqual(env.now() + seconds * 1000);
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
      expect(await env.store.getSubscription(topic, sub.url(path))).toEqual({
        topic,
        callback: sub.url(path),
        secret: undefined,
        leaseSeconds: LEASE.defaultSeconds,
        expiresAt: expect.any(Number),
        failures: 0,
      });
      expectLeaseEnd((await env.store.getSubscription(topic, sub.url(path)))?.expiresAt, started, LEASE.defaultSeconds);
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
    expect(await env.store.countSubscriptions()).toBe(4);
    expect(env.hub.outcomes).toMatchObject({ verified: 6, unverified: 0 });
  });

  it("answers 202 before verification and whatever its outcome (callback held, then 500)", async () => {
    const path = fresh();
    sub.on(path, { GET: "hold" });
    const response = await env.post(subscribeForm(TOPICS.atom, sub.url(path)));
    expect(response.status).toBe(202);
    await sub.waitFor(() => sub.heldCount === 1, 3000, "held verification");
    expect(await env.store.getSubscription(TOPICS.atom, sub.url(path))).toBeUndefined();
    sub.release("error");
    await env.hub.idle();
    expect(await env.store.getSubscription(TOPICS.atom, sub.url(path))).toBeUndefined();

    const failing = fresh();
    sub.on(failing, { GET: "error" });
    expect((await env.post(subscribeForm(TOPICS.atom, sub.url(failing)))).status).toBe(202);
    await env.hub.idle();
    expect(sub.to(failing)).toHaveLength(1);
    expect(await env.store.countSubscriptions()).toBe(0);
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
    expect(await env.store.getSubscription(TOPICS.jsonFeed, sub.url(path))).toBeUndefined();
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
    expect(await env.store.countSubscriptions()).toBe(0);
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
    expect((await env.store.getSubscription(TOPICS.reviews, callback))?.callback).toBe(callback);

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
    expect(await env.store.getSubscription(TOPICS.atom, sub.url(path))).toBeDefined();
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
    expect(await env.store.countSubscriptions()).toBe(1);
    expect(await env.store.countSubscriptions({ callbackHost: "127.0.0.1" })).toBe(1);
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
    const subscription = await env.store.getSubscription(TOPICS.atom, sub.url(path));
    expect(subscription?.leaseSeconds).toBe(granted);
    expectLeaseEnd(subscription?.expiresAt, started, granted);
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
      expect((await env.store.getSubscription(TOPICS.atom, sub.url(path)))?.secret).toBe(secret);
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
    expect(await env.store.getSubscription(TOPICS.reviews, callback)).toBeDefined();

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
    expect(await env.store.getSubscription(TOPICS.reviews, callback)).toBeDefined();

    sub.on(path, { GET: "echo" });
    expect(
      (await env.post({ "hub.mode": "unsubscribe", "hub.topic": TOPICS.reviews, "hub.callback": callback })).status,
    ).toBe(202);
    await env.hub.idle();
    expect(sub.to(path)).toHaveLength(3);
    expect(sub.to(path)[2]?.query.get("hub.mode")).toBe("unsubscribe");
    expect(await env.store.getSubscription(TOPICS.reviews, callback)).toBeUndefined();
  });
});
