/**
 * Shared set-up of the hub intake tests (hub.test.ts, hub-rejections.test.ts, hub-limits.test.ts):
 * each test gets its own hub, run as in production (Hub + SqliteHubStore + GuardedClient mounted by
 * createApp), against one local HTTPS subscriber per file whose certificate comes from a CA made at
 * test time.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject, vi } from "vitest";
import { HttpsSubscriber, type RecordedRequest } from "./https-subscriber.ts";
import { type HubEnv, type HubEnvOptions, startHubEnv } from "./hub-env.ts";

// Live bindings: the hooks below replace them, and the test files read them through their imports.
export let sub: HttpsSubscriber;
export let env: HubEnv;
const extraEnvs: HubEnv[] = [];

/** Registers the hooks: one subscriber for the file, a fresh hub for each test. */
export function setupHubIntake(): void {
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
}

/** Another hub for one test, closed after it. */
export async function otherEnv(options: Partial<HubEnvOptions>): Promise<HubEnv> {
  const other = await startHubEnv({ dist: inject("sampleDist"), ca: sub.ca, ...options });
  extraEnvs.push(other);
  return other;
}

let pathCount = 0;
/** A callback path no other test uses. */
export const fresh = (name = "cb") => `/intake-${++pathCount}/${name}`;

export const subscribeForm = (topic: string, callback: string, extra: Record<string, string> = {}) => ({
  "hub.mode": "subscribe",
  "hub.topic": topic,
  "hub.callback": callback,
  ...extra,
});

/** Counts the hub's outbound requests (verification, delivery, denial) from now on. */
export function countOutbound(target: HubEnv = env) {
  return vi.spyOn(target.client, "send");
}

export function expectPlainText(response: { type: string | null; text: string }) {
  expect(response.type).toMatch(/^text\/plain\b/);
  expect(response.text.length).toBeGreaterThan(0);
}

export function expectVerification(request: RecordedRequest | undefined, topic: string, lease: number | undefined) {
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
