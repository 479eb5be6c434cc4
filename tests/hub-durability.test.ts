import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TEST_SITE_URL } from "./support/global-setup.ts";
import {
  type HubSidecar,
  type HubSidecars,
  hubPost,
  startHubSidecar,
  stopHubSidecars,
  waitFor,
} from "./support/hub-process-sidecar.ts";
import { dataWithOneMoreReview, distDocument, readHubState, swapDist } from "./support/hub-process-state.ts";
import { type Subscriber, startSubscriber, testCertificate } from "./support/hub-process-subscriber.ts";
import { runBuild } from "./support/run-build.ts";

/**
 * Durability of the hub in a real sidecar process: its SQLite state survives a SIGKILL in the middle
 * of a fan-out, and the restarted process finishes what was owed without losing or doubling any
 * subscription.
 */
const FEED = `${TEST_SITE_URL}/feed.xml`;
const REVIEWS = `${TEST_SITE_URL}/reviews.json`;
const SUBSCRIBERS = 40;
const CONCURRENCY = 4;

const sidecars: HubSidecars = new Set();
let work: string;
let firstDist: string;
let nextDist: string;
let caFile: string;
let subscriber: Subscriber;

function hubEnv(stateDir: string, distDir: string): Record<string, string> {
  return {
    SITE_URL: TEST_SITE_URL,
    DIST_DIR: distDir,
    STATE_DIR: stateDir,
    HUB_ALLOWED_CIDRS: "127.0.0.0/8",
    HUB_EXTRA_CA_FILE: caFile,
    HUB_TIMEOUT_MS: "5000",
    HUB_CONCURRENCY: String(CONCURRENCY),
    HUB_RETRY_MIN_MS: "100",
    HUB_RETRY_MAX_MS: "500",
    HUB_RATE_LIMIT_PER_MINUTE: "1000",
    HUB_CALLBACK_HOST_RATE_LIMIT_PER_MINUTE: "1000",
    HUB_MAX_PENDING_PER_CLIENT: "1000",
    HUB_MAX_PENDING_PER_HOST: "1000",
  };
}

/** A fresh state folder and a dist folder holding a copy of the first build. */
function freshSite(name: string): { stateDir: string; distDir: string } {
  const distDir = path.join(work, `${name}-dist`);
  cpSync(firstDist, distDir, { recursive: true });
  return { stateDir: path.join(work, `${name}-state`), distDir };
}

const subscribe = (sidecar: HubSidecar, topic: string, callback: string) =>
  hubPost(sidecar.base, { "hub.mode": "subscribe", "hub.topic": topic, "hub.callback": callback });

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "hub-durability-"));
  firstDist = inject("sampleDist");
  nextDist = path.join(work, "next-dist");
  const [certificate, build] = await Promise.all([
    testCertificate(),
    runBuild({
      DATA_DIR: dataWithOneMoreReview(path.join(work, "data-next")),
      DIST_DIR: nextDist,
      SITE_URL: TEST_SITE_URL,
    }),
  ]);
  if (build.code !== 0) throw new Error(`second build failed (${build.code}):\n${build.stdout}\n${build.stderr}`);
  caFile = path.join(work, "ca.pem");
  writeFileSync(caFile, certificate.cert);
  subscriber = await startSubscriber(certificate);
});

afterAll(async () => {
  await stopHubSidecars(sidecars);
  await subscriber?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("hub durability (real sidecar process, SQLite state)", () => {
  it("Nothing is lost on a crash: a SIGKILL mid fan-out, then a restart, delivers to every subscriber", async () => {
    const { stateDir, distDir } = freshSite("crash");
    const callbacks = Array.from({ length: SUBSCRIBERS }, (_, i) => `${subscriber.base}/crash/${i}`);
    const paths = callbacks.map((c) => new URL(c).pathname);
    let sidecar = await startHubSidecar(hubEnv(stateDir, distDir), sidecars);

    const answers = await Promise.all(callbacks.map((callback) => subscribe(sidecar, FEED, callback)));
    expect(answers.map((a) => a.status)).toEqual(callbacks.map(() => 202));
    await waitFor(
      `${SUBSCRIBERS} verified subscriptions`,
      () => readHubState(stateDir).subscriptions.length === SUBSCRIBERS,
    );

    // The change: a build with one more review, then the publish ping. Every delivery takes 300 ms and the
    // hub sends 4 at a time, so the fan-out to 40 lasts about 3 s.
    subscriber.delayMs = 300;
    const newest = distDocument(nextDist, "/feed.xml");
    swapDist(nextDist, distDir);
    const ping = await hubPost(sidecar.base, { "hub.mode": "publish", "hub.url": FEED });
    expect(ping.status).toBe(202);
    const crashing = (d: { path: string }) => d.path.startsWith("/crash/");
    await waitFor(
      "some answered deliveries",
      () => subscriber.deliveries.filter((d) => crashing(d) && d.answeredAt).length >= 8,
    );
    const answered = () => subscriber.deliveries.filter((d) => crashing(d) && d.answeredAt).length;
    // Answered just before the kill (a lower bound of what the hub recorded, less the 4 in flight) and
    // after it (an upper bound: an answer can still be flushed to a socket whose peer just died).
    const answeredBeforeCrash = answered();
    await sidecar.kill9();
    const answeredAfterCrash = answered();
    const arrivedBeforeCrash = subscriber.deliveries.filter(crashing).length;
    expect(arrivedBeforeCrash).toBeLessThan(SUBSCRIBERS);

    // What the crash left on disk: all 40 subscriptions, the new hash recorded, the rest still owed.
    const crashed = readHubState(stateDir);
    expect(crashed.subscriptions).toHaveLength(SUBSCRIBERS);
    expect(crashed.topics.get(FEED)).toBe(newest.sha256);
    expect(crashed.deliveries.length).toBeGreaterThanOrEqual(SUBSCRIBERS - answeredAfterCrash);
    expect(crashed.deliveries.length).toBeLessThan(SUBSCRIBERS);

    sidecar = await startHubSidecar(hubEnv(stateDir, distDir), sidecars);
    const newestTo = (p: string) => subscriber.deliveriesTo(p).filter((d) => d.body.equals(newest.body));
    await waitFor(
      "every subscriber to receive the newest feed",
      () => paths.every((p) => newestTo(p).length > 0),
      20_000,
    );
    await waitFor("nothing left owed", () => readHubState(stateDir).deliveries.length === 0, 5_000);
    expect(await sidecar.stop()).toBe(0);

    for (const p of paths) {
      const [first] = newestTo(p);
      expect(first?.headers["content-type"]).toBe(newest.contentType);
      expect(first?.headers.link).toBe(`<${TEST_SITE_URL}/api/websub/hub>; rel="hub", <${FEED}>; rel="self"`);
      // At least once; twice only for a delivery in flight when the process died.
      expect(subscriber.deliveriesTo(p).length).toBeLessThanOrEqual(2);
    }
    // Deliveries answered before the crash were recorded as done and not sent again.
    const afterRestart = subscriber.deliveries.filter(crashing).length - arrivedBeforeCrash;
    expect(afterRestart).toBeLessThanOrEqual(SUBSCRIBERS - answeredBeforeCrash + CONCURRENCY);
    expect(afterRestart).toBeGreaterThanOrEqual(SUBSCRIBERS - arrivedBeforeCrash);

    // No subscription lost or doubled: one row per (topic, callback), all healthy.
    const final = readHubState(stateDir);
    expect(final.subscriptions.map((s) => [s.topic, s.callback])).toEqual(
      [...callbacks].sort().map((callback) => [FEED, callback]),
    );
    expect(final.subscriptions.every((s) => s.failures === 0)).toBe(true);
    expect(final.deliveries).toEqual([]);
    expect(final.pendingIntents).toBe(0);
  });

  it("two concurrent identical subscribes give one row and one delivery per change", async () => {
    subscriber.delayMs = 0;
    const { stateDir, distDir } = freshSite("twice");
    const callback = `${subscriber.base}/twice?token=a/b&x=c%20d`;
    const sidecar = await startHubSidecar(hubEnv(stateDir, distDir), sidecars);
    const answers = await Promise.all([subscribe(sidecar, REVIEWS, callback), subscribe(sidecar, REVIEWS, callback)]);
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    await waitFor("both verifications", () => subscriber.verifications.filter((v) => v.path === "/twice").length === 2);
    await waitFor("the subscription row", () => readHubState(stateDir).subscriptions.length === 1);
    // Let the second verification's upsert land too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readHubState(stateDir).subscriptions.map((s) => [s.topic, s.callback])).toEqual([[REVIEWS, callback]]);

    swapDist(nextDist, distDir);
    const ping = await hubPost(sidecar.base, { "hub.mode": "publish", "hub.url": REVIEWS });
    expect(ping.status).toBe(202);
    await waitFor("the delivery", () => subscriber.deliveriesTo("/twice").length > 0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const received = subscriber.deliveriesTo("/twice");
    expect(received).toHaveLength(1);
    expect(received[0]?.body.equals(distDocument(nextDist, "/reviews.json").body)).toBe(true);
    expect(await sidecar.stop()).toBe(0);

    const final = readHubState(stateDir);
    expect(final.subscriptions.map((s) => [s.topic, s.callback])).toEqual([[REVIEWS, callback]]);
    expect(final.deliveries).toEqual([]);
  });

  it("a subscribe answered 202 just before a crash is verified after the restart", async () => {
    const { stateDir, distDir } = freshSite("pending");
    const callback = `${subscriber.base}/pending`;
    let sidecar = await startHubSidecar(hubEnv(stateDir, distDir), sidecars);
    subscriber.verifyDelayMs = 2000;
    try {
      expect((await subscribe(sidecar, FEED, callback)).status).toBe(202);
      await waitFor("the verification GET", () => subscriber.verifications.some((v) => v.path === "/pending"));
      await sidecar.kill9();
    } finally {
      subscriber.verifyDelayMs = 0;
    }
    sidecar = await startHubSidecar(hubEnv(stateDir, distDir), sidecars);
    try {
      // The accepted intent is in the store; the restarted hub verifies it again.
      await waitFor(
        "a verified subscription after the restart",
        () => readHubState(stateDir).subscriptions.length === 1,
        5000,
      );
      expect(subscriber.verifications.filter((v) => v.path === "/pending").map((v) => v.mode)).toEqual([
        "subscribe",
        "subscribe",
      ]);
    } finally {
      await sidecar.stop();
    }
    expect(readHubState(stateDir).pendingIntents).toBe(0);
  });

  it("the publish reply names the topics it distributes", async () => {
    const { stateDir, distDir } = freshSite("reply");
    const sidecar = await startHubSidecar(hubEnv(stateDir, distDir), sidecars);
    try {
      swapDist(nextDist, distDir);
      const ping = await hubPost(sidecar.base, { "hub.mode": "publish", "hub.url": FEED });
      expect(ping.status).toBe(202);
      // Regression: reload() runs the hub's swap listener, which records the change itself; the reply
      // must still name what this ping distributes.
      expect(ping.text).toBe(`Accepted: distributing ${FEED}, ${TEST_SITE_URL}/api/feed.json, ${REVIEWS}`);
    } finally {
      await sidecar.stop();
    }
  });
});
