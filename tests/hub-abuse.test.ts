/**
 * WebSub hub under the attacks of issue 20 (findings 2 and 6), scaled down: floods of subscribe and
 * unsubscribe intents from several client addresses towards a callback host that accepts connections
 * and never answers, and one callback host spread over many ports. Real HTTP from distinct loopback
 * source addresses, real TLS callbacks.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BlackHole, blackHole, postFrom } from "./support/black-hole.ts";
import { buildVariant, TOPICS } from "./support/hub-env.ts";
import { expectPlainText, fresh, otherEnv, setupHubIntake, sub, subscribeForm } from "./support/hub-routes-intake.ts";

setupHubIntake();

let work: string;
let changed: string;
const holes: BlackHole[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "hub-abuse-"));
  changed = await buildVariant(work, "abuse", { id: "2026-11-26-hub-abuse", date: "2026-11-26" });
});

afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
});

// Before the hub closes: its verifications towards a black hole end only with their connection.
afterEach(async () => {
  await Promise.all(holes.splice(0).map((hole) => hole.close()));
});

async function hole(host: string): Promise<BlackHole> {
  const made = await blackHole(host);
  holes.push(made);
  return made;
}

async function until(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const intent = (mode: "subscribe" | "unsubscribe", callback: string) => ({
  "hub.mode": mode,
  "hub.topic": TOPICS.reviews,
  "hub.callback": callback,
});

describe("verification floods (finding 2)", () => {
  it("delivers to and verifies legitimate subscribers at once while intents towards a host that never answers pile up", async () => {
    const [first, second] = [await hole("127.0.0.2"), await hole("127.0.0.2")];
    const hub = await otherEnv({
      timeoutMs: 30_000,
      concurrency: 2,
      verifyConcurrency: 4,
      pendingCaps: { perClient: 100, perHost: 3, total: 100 },
    });
    const legit = fresh("legit");
    expect((await hub.post(subscribeForm(TOPICS.reviews, sub.url(legit)))).status).toBe(202);
    await until("the legitimate subscription", async () => (await hub.store.countSubscriptions()) === 1);

    // Five client addresses, eight intents each (both modes), towards one host on two ports.
    const answers: { status: number; text: string; retryAfter: string | null }[] = [];
    for (let client = 0; client < 5; client++) {
      for (let i = 0; i < 8; i++) {
        const port = i % 2 === 0 ? first.port : second.port;
        const callback = `https://127.0.0.2:${port}/attack/${client}/${i}`;
        answers.push(
          await postFrom(hub.base, `127.0.0.${20 + client}`, intent(i % 2 ? "unsubscribe" : "subscribe", callback)),
        );
      }
    }
    await until("verifications holding connections", () => first.connections + second.connections >= 2);

    await hub.switchTo(changed);
    await sub.waitFor(() => sub.deliveries(legit).length === 1, 5000, "the delivery to the legitimate subscriber");
    const late = fresh("late");
    expect((await hub.post(subscribeForm(TOPICS.reviews, sub.url(late)))).status).toBe(202);
    await sub.waitFor(() => sub.verifications(late).length === 1, 5000, "the verification of a new subscriber");

    expect(answers.filter((a) => a.status === 202)).toHaveLength(3);
    const refused = answers.filter((a) => a.status !== 202);
    expect(refused).toHaveLength(37);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.text).toMatch(/verifications pending for callback host 127\.0\.0\.2\b/);
      expect(Number(answer.retryAfter)).toBe(30);
    }
    expect(first.connections + second.connections).toBe(3);
  });

  it("caps pending verifications per client address (429), per callback host (429) and in all (503), with Retry-After", async () => {
    const [h2, h3] = [await hole("127.0.0.2"), await hole("127.0.0.3")];
    const h4 = await hole("127.0.0.4");
    const hub = await otherEnv({ timeoutMs: 30_000, pendingCaps: { perClient: 2, perHost: 3, total: 5 } });
    const to = (h: BlackHole, name: string) => `https://${h.host}:${h.port}/${name}`;
    const send = (from: string, mode: "subscribe" | "unsubscribe", callback: string) =>
      postFrom(hub.base, from, intent(mode, callback));

    expect((await send("127.0.0.31", "unsubscribe", to(h2, "a1"))).status).toBe(202);
    expect((await send("127.0.0.31", "unsubscribe", to(h3, "a2"))).status).toBe(202);
    const perClient = await send("127.0.0.31", "subscribe", to(h4, "a3"));
    expect([perClient.status, perClient.text]).toEqual([
      429,
      "Too many verifications pending for requests from this address; retry after 30 s.",
    ]);
    expect(perClient.retryAfter).toBe("30");

    expect((await send("127.0.0.32", "subscribe", to(h2, "b1"))).status).toBe(202);
    expect((await send("127.0.0.32", "unsubscribe", to(h2, "b2"))).status).toBe(202);
    const perHost = await send("127.0.0.33", "unsubscribe", to(h2, "c1"));
    expect([perHost.status, perHost.retryAfter]).toEqual([429, "30"]);
    expect(perHost.text).toContain("callback host 127.0.0.2;");

    expect((await send("127.0.0.33", "subscribe", to(h3, "c2"))).status).toBe(202);
    const total = await send("127.0.0.34", "subscribe", to(h4, "d1"));
    expect([total.status, total.text, total.retryAfter]).toEqual([
      503,
      "Too many verifications pending at this hub; retry after 30 s.",
      "30",
    ]);

    await until("five verifications connected", () => h2.connections + h3.connections + h4.connections >= 5);
    expect([h2.connections, h3.connections, h4.connections]).toEqual([3, 2, 0]);
    // Once verifications end, the caps make room again.
    await h2.close();
    await until(
      "room for the client again",
      async () => (await send("127.0.0.31", "subscribe", to(h3, "a4"))).status === 202,
    );
  });
});

describe("per-callback-host limits count the host, not host:port (finding 6)", () => {
  it("rate-limits one host reached on many ports, and its IPv4-mapped form, as one host", async () => {
    const limited = await otherEnv({ routes: { callbackHostRatePerMinute: 3 } });
    const statuses: number[] = [];
    for (const port of [sub.port, 1, 2, 3, 4]) {
      statuses.push((await limited.post(subscribeForm(TOPICS.atom, `https://127.0.0.1:${port}${fresh()}`))).status);
    }
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    const mapped = await limited.post(subscribeForm(TOPICS.atom, `https://[::ffff:127.0.0.1]:5${fresh()}`));
    expect(mapped.status).toBe(429);
    expectPlainText(mapped);
    expect((await limited.post(subscribeForm(TOPICS.atom, `https://127.0.0.5:6${fresh()}`))).status).toBe(202);
  });

  it("refuses a new subscription past the per-host cap whatever port its callback names (403)", async () => {
    const capped = await otherEnv({ caps: { perHost: 2, total: 100 } });
    for (const name of ["one", "two"]) {
      expect((await capped.post(subscribeForm(TOPICS.atom, sub.url(fresh(name))))).status).toBe(202);
      await capped.hub.idle();
    }
    expect(await capped.store.countSubscriptions({ callbackHost: "127.0.0.1" })).toBe(2);
    const refused = await capped.post(subscribeForm(TOPICS.atom, `https://127.0.0.1:1${fresh()}`));
    expect([refused.status, refused.text]).toEqual([403, "Too many subscriptions for callback host 127.0.0.1."]);
  });
});
