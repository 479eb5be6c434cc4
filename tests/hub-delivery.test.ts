/**
 * WebSub hub, content distribution (W3C REC 2018-01-23 §7, §5.2 denial): topics are changed by
 * swapping in real builds of slightly different data (one more recent review changes all three
 * topics; one more old review changes only /reviews.json), then the hub is told to look for changes.
 * Intake and verification are in hub.test.ts. Background and decisions: /work/shared/notes/websub.md.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { SqliteHubStore } from "../sidecar/src/hub/store/sqlite-store.ts";
import { HttpsSubscriber, NEVER_PATH, type RecordedRequest } from "./support/https-subscriber.ts";
import {
  ALL_TOPICS,
  buildVariant,
  HUB_URL,
  type HubEnv,
  type HubEnvOptions,
  LEASE,
  startHubEnv,
  TOPICS,
} from "./support/hub-env.ts";

let sub: HttpsSubscriber;
let env: HubEnv;
let work: string;
/** The sample build, and two variants of it. */
let distA: string;
/** One more recent review: all three topics differ from A. */
let distB: string;
/** One more review from 2023: only /reviews.json differs from A (the feeds keep their 50 newest). */
let distD: string;
const extraEnvs: HubEnv[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "hub-delivery-"));
  distA = inject("sampleDist");
  sub = await HttpsSubscriber.start();
  // Sequential on purpose: two builds at once clash in the repository's .astro/ folder.
  distB = await buildVariant(work, "recent", { id: "2026-11-21-hub-test", date: "2026-11-21" });
  distD = await buildVariant(work, "old", { id: "2023-01-04-hub-old", date: "2023-01-04" });
});
afterAll(async () => {
  await sub?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});
beforeEach(async () => {
  env = await startHubEnv({ dist: distA, ca: sub.ca });
});
afterEach(async () => {
  sub.release("ok");
  await Promise.all([env, ...extraEnvs.splice(0)].map((e) => e.close()));
});

async function otherEnv(options: Partial<HubEnvOptions>): Promise<HubEnv> {
  const other = await startHubEnv({ dist: distA, ca: sub.ca, ...options });
  extraEnvs.push(other);
  return other;
}

let pathCount = 0;
const fresh = (name = "cb") => `/delivery-${++pathCount}/${name}`;

const TOPIC_FILES: Record<string, string> = {
  [TOPICS.atom]: "feed.xml",
  [TOPICS.jsonFeed]: "api/feed.json",
  [TOPICS.reviews]: "reviews.json",
};
/** The bytes of a topic in a build. */
const topicBytes = (dist: string, topic: string) => readFileSync(path.join(dist, TOPIC_FILES[topic] ?? "missing"));

/** Subscribes and waits for the verification; the subscription must then be active. */
async function subscribe(
  callback: string,
  topic: string,
  extra: Record<string, string> = {},
  target: HubEnv = env,
): Promise<void> {
  const response = await target.post({
    "hub.mode": "subscribe",
    "hub.topic": topic,
    "hub.callback": callback,
    ...extra,
  });
  expect(response.status).toBe(202);
  await target.hub.idle();
}

/** Switches the served build and waits until the hub has delivered everything it could. */
async function change(dist: string, target: HubEnv = env): Promise<string[]> {
  const changed = target.switchTo(dist);
  await target.hub.idle();
  return changed;
}

function signatureValid(request: RecordedRequest | undefined, secret: string): boolean {
  const header = request?.headers["x-hub-signature"];
  const match = typeof header === "string" ? /^sha256=([0-9a-f]{64})$/.exec(header) : null;
  if (!match?.[1] || !request) return false;
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(request.body).digest();
  return timingSafeEqual(Buffer.from(match[1], "hex"), expected);
}

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
    expect(env.store.pendingCount()).toBe(0);
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
    await subscribe(sub.url(p), TOPICS.reviews, { "hub.lease_seconds": "100000" });
    expect(sub.verifications(p)).toHaveLength(2);
    expect(env.store.countSubscriptions()).toBe(1);
    expect(env.store.getSubscription(TOPICS.reviews, sub.url(p))).toMatchObject({
      leaseSeconds: 100_000,
      expiresAt: env.now() + 100_000_000,
    });
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
    const before = env.store.getSubscription(TOPICS.atom, callback);
    expect(before?.secret).toBe("first-secret");
    env.advance(3_600_000);
    for (const mode of ["not-found", "wrong-echo", "redirect"] as const) {
      sub.on(p, { GET: mode });
      await subscribe(callback, TOPICS.atom, { "hub.secret": "second-secret", "hub.lease_seconds": "200000" });
      expect(env.store.getSubscription(TOPICS.atom, callback), mode).toEqual(before);
    }
    // Nor does a failed re-subscribe without a secret clear it.
    await subscribe(callback, TOPICS.atom);
    expect(env.store.getSubscription(TOPICS.atom, callback)).toEqual(before);
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
    expect(env.store.getSubscription(TOPICS.atom, callback)?.secret).toBeUndefined();
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
    expect(env.store.getSubscription(TOPICS.reviews, sub.url(gone))).toBeUndefined();
  });
});

describe("failing subscribers", () => {
  it("removes a subscription after three consecutive failures (3xx and timeouts included) and says so", async () => {
    const p = fresh();
    const callback = sub.url(`${p}?k=v`);
    await subscribe(callback, TOPICS.atom);
    sub.queue(p, "POST", ["redirect", "hang", "error"]);
    await change(distB);
    expect(sub.deliveries(p)).toHaveLength(3);
    expect(sub.to(NEVER_PATH)).toEqual([]);
    expect(env.store.getSubscription(TOPICS.atom, callback)).toBeUndefined();
    const [denial, ...more] = sub.denials(p);
    expect(more).toEqual([]);
    expect(denial?.url.startsWith(`${p}?k=v&hub.mode=denied&`)).toBe(true);
    expect(denial?.query.get("hub.topic")).toBe(TOPICS.atom);
    expect(denial?.query.get("hub.reason")).toBeTruthy();
    expect(denial?.query.has("hub.challenge")).toBe(false);
    expect(denial?.at).toBeGreaterThan(sub.deliveries(p)[2]?.at ?? Number.POSITIVE_INFINITY);
    expect(env.hub.outcomes.removed).toBe(1);
    await change(distA);
    expect(sub.deliveries(p)).toHaveLength(3);
  });

  it("resets the failure count on a success", async () => {
    const p = fresh();
    await subscribe(sub.url(p), TOPICS.reviews);
    for (const dist of [distB, distA, distB]) {
      sub.queue(p, "POST", ["error", "error", "ok"]);
      await change(dist);
      expect(env.store.getSubscription(TOPICS.reviews, sub.url(p))?.failures).toBe(0);
    }
    expect(sub.deliveries(p)).toHaveLength(9);
    expect(sub.denials(p)).toEqual([]);
    expect(env.hub.outcomes).toMatchObject({ delivered: 3, removed: 0 });
  });

  it("removes a subscription at once on 410 Gone", async () => {
    const p = fresh();
    await subscribe(sub.url(p), TOPICS.reviews);
    sub.on(p, { POST: "gone" });
    await change(distB);
    expect(sub.deliveries(p)).toHaveLength(1);
    expect(env.store.getSubscription(TOPICS.reviews, sub.url(p))).toBeUndefined();
    await change(distA);
    expect(sub.deliveries(p)).toHaveLength(1);
  });
});

describe("coalescing, leases and durability", () => {
  it("coalesces changes made while a delivery is pending into one delivery of the newest content", async () => {
    const p = fresh();
    await subscribe(sub.url(p), TOPICS.reviews);
    sub.on(p, { POST: "hold" });
    env.switchTo(distB);
    await sub.waitFor(() => sub.heldCount === 1, 3000, "held delivery");
    env.switchTo(distD);
    env.switchTo(distA);
    sub.on(p, { POST: "ok" });
    sub.release("ok");
    await env.hub.idle();
    const bodies = sub.deliveries(p).map((d) => d.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.equals(topicBytes(distB, TOPICS.reviews))).toBe(true);
    expect(bodies[1]?.equals(topicBytes(distA, TOPICS.reviews))).toBe(true);
    expect(env.store.pendingCount()).toBe(0);
  });

  it("delivers until the lease ends, then nothing, and purges the expired subscription", async () => {
    const timed = await otherEnv({ tickMs: 20 });
    const p = fresh();
    await subscribe(sub.url(p), TOPICS.atom, {}, timed);
    const expiresAt = timed.store.getSubscription(TOPICS.atom, sub.url(p))?.expiresAt ?? 0;
    expect(expiresAt).toBe(timed.now() + LEASE.defaultSeconds * 1000);
    timed.advance(LEASE.defaultSeconds * 1000 - 1000);
    await change(distB, timed);
    expect(sub.deliveries(p)).toHaveLength(1);
    timed.advance(1000);
    expect(await change(distA, timed)).toEqual(expect.arrayContaining([TOPICS.atom]));
    expect(sub.deliveries(p)).toHaveLength(1);
    expect(timed.store.pendingCount()).toBe(0);
    timed.hub.start();
    await vi.waitFor(() => expect(timed.store.getSubscription(TOPICS.atom, sub.url(p))).toBeUndefined(), {
      timeout: 2000,
      interval: 10,
    });
    await timed.hub.stop();
    expect(sub.deliveries(p)).toHaveLength(1);
  });

  it("keeps subscriptions and owed deliveries in the store file across a restart", async () => {
    const storeFile = path.join(work, `restart-${Date.now()}`, "hub.sqlite");
    const first = await otherEnv({ storeFile });
    const p = fresh();
    const callback = sub.url(p);
    await subscribe(callback, TOPICS.reviews, { "hub.secret": "durable-secret", "hub.lease_seconds": "100000" }, first);
    const subscription = first.store.getSubscription(TOPICS.reviews, callback);
    // The process dies after noticing the change, before any delivery gets out.
    vi.spyOn(first.client, "send").mockImplementation(() => new Promise(() => undefined));
    expect(first.switchTo(distB)).toEqual(expect.arrayContaining([TOPICS.reviews]));
    await first.crash();

    const reopened = new SqliteHubStore(storeFile);
    try {
      expect(reopened.getSubscription(TOPICS.reviews, callback)).toEqual(subscription);
      expect(reopened.pendingCount()).toBe(1);
      const sha = createHash("sha256").update(topicBytes(distB, TOPICS.reviews)).digest("hex");
      expect(reopened.dueDeliveries(first.now(), 10)).toEqual([
        { topic: TOPICS.reviews, callback, sha256: sha, dueAt: first.now() },
      ]);
      expect(reopened.distributedHash(TOPICS.reviews)).toBe(sha);
    } finally {
      reopened.close();
    }

    const second = await otherEnv({ storeFile, dist: distB, clock: first.now() });
    expect(second.store.getSubscription(TOPICS.reviews, callback)).toEqual(subscription);
    second.hub.kick();
    await second.hub.idle();
    const [delivery, ...more] = sub.deliveries(p);
    expect(more).toEqual([]);
    expect(delivery?.body.equals(topicBytes(distB, TOPICS.reviews))).toBe(true);
    expect(signatureValid(delivery, "durable-secret")).toBe(true);
    expect(second.store.pendingCount()).toBe(0);
    await change(distA, second);
    expect(sub.deliveries(p)).toHaveLength(2);
  });

  // Regression: deliveries were once worked off in batches, so one slow subscriber held back every
  // later change for everyone else; each delivery now starts as soon as it is due.
  it("does not hold back other subscribers' deliveries while one subscriber is slow", async () => {
    const slow = fresh("slow");
    const fast = fresh("fast");
    await subscribe(sub.url(slow), TOPICS.reviews);
    await subscribe(sub.url(fast), TOPICS.reviews);
    sub.on(slow, { POST: "hold" });
    try {
      env.switchTo(distB);
      await sub.waitFor(() => sub.heldCount === 1 && sub.deliveries(fast).length === 1, 3000, "first deliveries");
      env.switchTo(distA);
      await sub.waitFor(() => sub.deliveries(fast).length === 2, 1000, "second delivery to the fast subscriber");
    } finally {
      sub.on(slow, { POST: "ok" });
      sub.release("ok");
    }
  });
});
