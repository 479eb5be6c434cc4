/**
 * WebSub hub, protection against abuse at intake: per-address and per-callback-host rate limits,
 * the per-host subscription cap, and publish pings (W3C REC 2018-01-23 §6), which change nothing
 * when the topics did not change and need the bearer token when one is configured. Background and
 * decisions: /work/shared/notes/websub.md.
 */
import { describe, expect, it } from "vitest";
import { TOPICS } from "./support/hub-env.ts";
import {
  countOutbound,
  env,
  expectPlainText,
  fresh,
  otherEnv,
  setupHubIntake,
  sub,
  subscribeForm,
} from "./support/hub-routes-intake.ts";

setupHubIntake();

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
    expect(await capped.store.countSubscriptions()).toBe(2);
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
    expect(await capped.store.countSubscriptions({ callbackHost: "127.0.0.1" })).toBeLessThanOrEqual(2);
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
    expect(await env.store.pendingCount()).toBe(0);
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
