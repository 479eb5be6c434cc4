/**
 * Shared setup for the WebSub content distribution tests (tests/hub-delivery-*.test.ts): one HTTPS
 * subscriber per test file, a fresh hub per test over the sample build, and two variants of that
 * build to change the topics with. A test file calls `useDeliveryEnv()` once at its top; the `let`
 * exports below are live bindings, set by its hooks.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from "vitest";
import { HttpsSubscriber, type RecordedRequest } from "./https-subscriber.ts";
import { buildVariant, type HubEnv, type HubEnvOptions, startHubEnv, TOPICS } from "./hub-env.ts";

export let sub: HttpsSubscriber;
export let env: HubEnv;
export let work: string;
/** The sample build, and two variants of it. */
export let distA: string;
/** One more recent review: all three topics differ from A. */
export let distB: string;
/** One more review from 2023: only /reviews.json differs from A (the feeds keep their 50 newest). */
export let distD: string;
const extraEnvs: HubEnv[] = [];

/** Registers the hooks that set the exports above, in the calling test file. */
export function useDeliveryEnv(): void {
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
}

export async function otherEnv(options: Partial<HubEnvOptions>): Promise<HubEnv> {
  const other = await startHubEnv({ dist: distA, ca: sub.ca, ...options });
  extraEnvs.push(other);
  return other;
}

let pathCount = 0;
export const fresh = (name = "cb") => `/delivery-${++pathCount}/${name}`;

const TOPIC_FILES: Record<string, string> = {
  [TOPICS.atom]: "feed.xml",
  [TOPICS.jsonFeed]: "api/feed.json",
  [TOPICS.reviews]: "reviews.json",
};
/** The bytes of a topic in a build. */
export const topicBytes = (dist: string, topic: string) =>
  readFileSync(path.join(dist, TOPIC_FILES[topic] ?? "missing"));

/** Subscribes and waits for the verification; the subscription must then be active. */
export async function subscribe(
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
export async function change(dist: string, target: HubEnv = env): Promise<string[]> {
  const changed = await target.switchTo(dist);
  await target.hub.idle();
  return changed;
}

export function signatureValid(request: RecordedRequest | undefined, secret: string): boolean {
  const header = request?.headers["x-hub-signature"];
  const match = typeof header === "string" ? /^sha256=([0-9a-f]{64})$/.exec(header) : null;
  if (!match?.[1] || !request) return false;
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(request.body).digest();
  return timingSafeEqual(Buffer.from(match[1], "hex"), expected);
}
