/**
 * WebSub hub, content distribution (W3C REC 2018-01-23 §7): what a delivery carries and when it is
 * sent, after a change, a publish ping (§6), a re-subscribe or an unsubscribe. Topics are changed by
 * swapping in real builds of slightly different data (one more recent review changes all three
 * topics; one more old review changes only /reviews.json), then the hub is told to look for changes;
 * see support/delivery-env.ts. Failing subscribers, coalescing, leases and durability are in
 * hub-delivery-reliability.test.ts; intake and verification in hub.test.ts. Background and decisions:
 * /work/shared/notes/websub.md.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  change,
  distA,
  distB,
  distD,
  env,
  fresh,
  otherEnv,
  signatureValid,
  sub,
  subscribe,
  topicBytes,
  useDeliveryEnv,
} from "./support/delivery-env.ts";
import { ALL_TOPICS, HUB_URL, TOPICS } from "./support/hub-env.ts";

useDeliveryEnv();

describe("content distribution (§7)", () => {
  it("delivers each topic byte for byte as a GET of it is served: body, Content-Type, Link, User-Agent", async () => {
    const paths = new Map(ALL_TOPICS.map((topic) => [topic, fresh()]));
    for (const [topic, p] of paths) await subscribe(sub.url(p), topic);
    expect(await change(distB)).toEqual(expect.arrayContaining([...ALL_TOPICS]));
    for (const [topic, p] of paths) {
      const deliveries = sub.deliveries(p);
      expect(deliveries, topic).toHaveLength(1);
      const [delivery] = deliveries;
      const served = await fetch(`${env.base}${new URL(topic).pathname}`, {
        headers: { "accept-encoding": "identity" },
      });
      expect(served.status).toBe(200);
      const servedBody = Buffer.from(await served.arrayBuffer());
      expect(delivery?.body.equals(servedBody), `${topic} body`).toBe(true);
      expect(delivery?.body.equals(topicBytes(distB, topic)), `${topic} is the new content`).toBe(true);
      expect(delivery?.headers["content-type"]).toBe(served.headers.get("content-type"));
      expect(delivery?.headers["content-type"]).toMatch(/; charset=utf-8$/);
      const link = `<${HUB_URL}>; rel="hub", <${topic}>; rel="self"`;
      // A GET also carries the discovery links (llms.txt, api-catalog) after these two; a delivery
      // carries exactly what WebSub asks for.
      expect(served.headers.get("link")?.startsWith(`${link}, `)).toBe(true);
      expect(delivery?.headers.link).toBe(link);
      expect(delivery?.rawHeaders.filter((_, i, all) => i % 2 === 0 && all[i]?.toLowerCase() === "link")).toHaveLength(
        1,
      );
      expect(delivery?.headers["user-agent"]).toBeTruthy();
      expect(delivery?.headers["x-hub-signature"]).toBeUndefined();
      expect(delivery?.url).toBe(p);
    }
    const types = ALL_TOPICS.map((topic) => sub.deliveries(paths.get(topic) ?? "")[0]?.headers["content-type"]);
    expect(types).toEqual([
      "application/atom+xml; charset=utf-8",
      "application/feed+json; charset=utf-8",
      "application/json; charset=utf-8",
    ]);
    expect(await env.store.pendingCount()).toBe(0);
    expect(env.hub.outcomes.delivered).toBe(3);
  });

  it("delivers nothing to subscribers of topics that did not change", async () => {
    const paths = new Map(ALL_TOPICS.map((topic) => [topic, fresh()]));
    for (const [topic, p] of paths) await subscribe(sub.url(p), topic);
    expect(await change(distD)).toEqual([TOPICS.reviews]);
    expect(sub.deliveries(paths.get(TOPICS.atom) ?? "")).toEqual([]);
    expect(sub.deliveries(paths.get(TOPICS.jsonFeed) ?? "")).toEqual([]);
    const [delivery, ...more] = sub.deliveries(paths.get(TOPICS.reviews) ?? "");
    expect(more).toEqual([]);
    expect(delivery?.body.equals(topicBytes(distD, TOPICS.reviews))).toBe(true);
    expect(delivery?.headers.link).toBe(`<${HUB_URL}>; rel="hub", <${TOPICS.reviews}>; rel="self"`);
  });

  it("posts to the exact callback, query included", async () => {
    const p = fresh();
    const callback = sub.url(`${p}?tok=a/b&x=c%20d&empty=&t=~`);
    await subscribe(callback, TOPICS.atom);
    await change(distB);
    const deliveries = sub.deliveries(p);
    expect(deliveries.map((d) => d.url)).toEqual([`${p}?tok=a/b&x=c%20d&empty=&t=~`]);
  });

  it("signs with X-Hub-Signature: sha256=<lowercase hex> of the exact body only when a secret was given", async () => {
    const secrets = {
      short: "websub-rocks-secret!",
      ascii199: "k".repeat(199),
      utf8: `${"é".repeat(99)}a`,
    };
    const paths = Object.fromEntries(Object.keys(secrets).map((name) => [name, fresh(name)]));
    for (const [name, secret] of Object.entries(secrets)) {
      await subscribe(sub.url(paths[name] ?? ""), TOPICS.jsonFeed, { "hub.secret": secret });
    }
    const unsigned = fresh("none");
    await subscribe(sub.url(unsigned), TOPICS.jsonFeed);
    await change(distB);
    for (const [name, secret] of Object.entries(secrets)) {
      const [delivery, ...more] = sub.deliveries(paths[name] ?? "");
      expect(more).toEqual([]);
      expect(delivery?.headers["x-hub-signature"], name).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(signatureValid(delivery, secret), name).toBe(true);
      expect(signatureValid(delivery, `${secret}x`), `${name} with another secret`).toBe(false);
    }
    // Keyed by the UTF-8 bytes of the secret, not Latin-1 or UTF-16.
    const utf8 = sub.deliveries(paths.utf8 ?? "")[0];
    const latin1 = createHmac("sha256", Buffer.from(secrets.utf8, "latin1"))
      .update(utf8?.body ?? "")
      .digest("hex");
    expect(utf8?.headers["x-hub-signature"]).not.toBe(`sha256=${latin1}`);
    const [plain] = sub.deliveries(unsigned);
    expect(plain).toBeDefined();
    expect(plain?.headers["x-hub-signature"]).toBeUndefined();
    expect(plain?.rawHeaders.some((h) => h.toLowerCase().startsWith("x-hub-signature"))).toBe(false);
  });
});

describe("publish pings (§6)", () => {
  it("delivers after a ping once a new build has landed, and only then", async () => {
    const token = "publish-token-0123456789";
    const pinged = await otherEnv({ routes: { publishToken: token } });
    const p = fresh();
    await subscribe(sub.url(p), TOPICS.atom, {}, pinged);
    const ping = { "hub.mode": "publish", "hub.url": TOPICS.atom };
    // The build lands on disk; nobody has told the sidecar yet.
    pinged.replaceFiles(distB);
    const refused = await pinged.post(ping);
    expect(refused.status).toBe(401);
    await pinged.hub.idle();
    expect(sub.deliveries(p)).toEqual([]);
    const accepted = await pinged.post(ping, { authorization: `Bearer ${token}` });
    expect(accepted.status).toBe(202);
    await pinged.hub.idle();
    expect(sub.deliveries(p)).toHaveLength(1);
    expect(sub.deliveries(p)[0]?.body.equals(topicBytes(distB, TOPICS.atom))).toBe(true);
    // Pinging again changes nothing.
    expect((await pinged.post(ping, { authorization: `Bearer ${token}` })).status).toBe(202);
    await pinged.hub.idle();
    expect(sub.deliveries(p)).toHaveLength(1);
  });
});

describe("re-subscribing and unsubscribing", () => {
  it("refreshes the lease on re-subscribe and still delivers once per change (websub.rocks 103)", async () => {
    const p = fresh();
    await subscribe(sub.url(p), TOPICS.reviews);
    env.advance(3_600_000);
    const resubscribed = env.now();
    await subscribe(sub.url(p), TOPICS.reviews, { "hub.lease_seconds": "100000" });
    expect(sub.verifications(p)).toHaveLength(2);
    expect(await env.store.countSubscriptions()).toBe(1);
    const refreshed = await env.store.getSubscription(TOPICS.reviews, sub.url(p));
    expect(refreshed?.leaseSeconds).toBe(100_000);
    expect(refreshed?.expiresAt).toBeGreaterThanOrEqual(resubscribed + 100_000_000);
    expect(refreshed?.expiresAt).toBeLessThanOrEqual(env.now() + 100_000_000);
    await change(distB);
    expect(sub.deliveries(p)).toHaveLength(1);
    await subscribe(sub.url(p), TOPICS.reviews);
    await change(distA);
    expect(sub.deliveries(p)).toHaveLength(2);
    expect(sub.deliveries(p)[1]?.body.equals(topicBytes(distA, TOPICS.reviews))).toBe(true);
  });

  it("keeps secret, lease and expiry when a re-subscribe is not verified", async () => {
    const p = fresh();
    const callback = sub.url(p);
    await subscribe(callback, TOPICS.atom, { "hub.secret": "first-secret", "hub.lease_seconds": "100000" });
    const before = await env.store.getSubscription(TOPICS.atom, callback);
    expect(before?.secret).toBe("first-secret");
    env.advance(3_600_000);
    for (const mode of ["not-found", "wrong-echo", "redirect"] as const) {
      sub.on(p, { GET: mode });
      await subscribe(callback, TOPICS.atom, { "hub.secret": "second-secret", "hub.lease_seconds": "200000" });
      expect(await env.store.getSubscription(TOPICS.atom, callback), mode).toEqual(before);
    }
    // Nor does a failed re-subscribe without a secret clear it.
    await subscribe(callback, TOPICS.atom);
    expect(await env.store.getSubscription(TOPICS.atom, callback)).toEqual(before);
    expect(sub.verifications(p)).toHaveLength(5);
    await change(distB);
    const [delivery] = sub.deliveries(p);
    expect(signatureValid(delivery, "first-secret")).toBe(true);
  });

  it("replaces the secret on a verified re-subscribe, and clears it when none is given", async () => {
    const p = fresh();
    const callback = sub.url(p);
    await subscribe(callback, TOPICS.atom, { "hub.secret": "first-secret" });
    await subscribe(callback, TOPICS.atom, { "hub.secret": "second-secret" });
    await change(distB);
    const [second] = sub.deliveries(p);
    expect(signatureValid(second, "second-secret")).toBe(true);
    expect(signatureValid(second, "first-secret")).toBe(false);
    await subscribe(callback, TOPICS.atom);
    expect((await env.store.getSubscription(TOPICS.atom, callback))?.secret).toBeUndefined();
    await change(distA);
    const [, cleared] = sub.deliveries(p);
    expect(cleared).toBeDefined();
    expect(cleared?.headers["x-hub-signature"]).toBeUndefined();
    // An empty hub.secret also means none.
    await subscribe(callback, TOPICS.atom, { "hub.secret": "third-secret" });
    await subscribe(callback, TOPICS.atom, { "hub.secret": "" });
    await change(distB);
    expect(sub.deliveries(p)[2]?.headers["x-hub-signature"]).toBeUndefined();
  });

  it("stops deliveries after a verified unsubscribe; a refused unsubscribe keeps them (websub.rocks 104)", async () => {
    const gone = fresh("gone");
    const stays = fresh("stays");
    await subscribe(sub.url(gone), TOPICS.reviews);
    await subscribe(sub.url(stays), TOPICS.reviews);
    sub.on(stays, { GET: "not-found" });
    for (const p of [gone, stays]) {
      const response = await env.post({
        "hub.mode": "unsubscribe",
        "hub.topic": TOPICS.reviews,
        "hub.callback": sub.url(p),
      });
      expect(response.status).toBe(202);
    }
    await env.hub.idle();
    for (const p of [gone, stays]) {
      const check = sub.verifications(p)[1];
      expect(check?.query.get("hub.mode")).toBe("unsubscribe");
      expect(check?.query.get("hub.topic")).toBe(TOPICS.reviews);
    }
    await change(distB);
    expect(sub.deliveries(gone)).toEqual([]);
    expect(sub.deliveries(stays)).toHaveLength(1);
    expect(await env.store.getSubscription(TOPICS.reviews, sub.url(gone))).toBeUndefined();
  });
});
