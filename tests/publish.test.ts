import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
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
import { dataWithOneMoreReview, distDocument, readHubState } from "./support/hub-process-state.ts";
import { type Subscriber, startSubscriber, testCertificate } from "./support/hub-process-subscriber.ts";
import { runScript } from "./support/run-build.ts";

/**
 * `npm run publish` against a real sidecar: it builds, pings the hub for every changed topic, stays
 * quiet when nothing changed, retries an unreachable hub and fails clearly, and sends the token.
 */
const FEED = `${TEST_SITE_URL}/feed.xml`;
const TOPICS = [FEED, `${TEST_SITE_URL}/api/feed.json`, `${TEST_SITE_URL}/reviews.json`];
const TOKEN = "publish-token-for-tests-0123456789";

const sidecars: HubSidecars = new Set();
let work: string;
let dataNext: string;
let caFile: string;
let subscriber: Subscriber;

function sidecarEnv(name: string, extra: Record<string, string> = {}) {
  const distDir = path.join(work, `${name}-dist`);
  cpSync(inject("sampleDist"), distDir, { recursive: true });
  const stateDir = path.join(work, `${name}-state`);
  const env = {
    SITE_URL: TEST_SITE_URL,
    DIST_DIR: distDir,
    STATE_DIR: stateDir,
    HUB_ALLOWED_CIDRS: "127.0.0.0/8",
    HUB_EXTRA_CA_FILE: caFile,
    // Request logs let the test count the pings the hub received.
    LOG_LEVEL: "info",
    ...extra,
  };
  return { env, distDir, stateDir };
}

/** Runs `scripts/publish.ts` as `npm run publish` does, with nothing inherited that could change its mind. */
function publish(env: Record<string, string>) {
  return runScript("scripts/publish.ts", [], {
    SITE_URL: TEST_SITE_URL,
    HUB_PUBLISH_TOKEN: "",
    PUBLISH_ATTEMPTS: "",
    LOG_LEVEL: "warn",
    ...env,
  });
}

/** Publish pings the sidecar logged (pino-http, one line per request). */
const pingsLogged = (sidecar: HubSidecar) =>
  sidecar
    .output()
    .split("\n")
    .filter((line) => line.includes('"method":"POST"') && line.includes('"url":"/api/websub/hub"'))
    .filter((line) => line.includes('"msg":"request completed"')).length;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "hub-publish-"));
  dataNext = dataWithOneMoreReview(path.join(work, "data"));
  const certificate = await testCertificate();
  caFile = path.join(work, "ca.pem");
  writeFileSync(caFile, certificate.cert);
  subscriber = await startSubscriber(certificate);
});

afterAll(async () => {
  await stopHubSidecars(sidecars);
  await subscriber?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("npm run publish against a running sidecar", () => {
  let hub: HubSidecar;
  let site: ReturnType<typeof sidecarEnv>;
  let downDist: string;

  beforeAll(async () => {
    downDist = path.join(work, "down-dist");
    site = sidecarEnv("open");
    hub = await startHubSidecar(site.env, sidecars);
    const callback = `${subscriber.base}/publish/feed`;
    const answer = await hubPost(hub.base, { "hub.mode": "subscribe", "hub.topic": FEED, "hub.callback": callback });
    expect(answer.status).toBe(202);
    await waitFor("the subscription", () => readHubState(site.stateDir).subscriptions.length === 1);
  });

  it("first run builds and pings the hub for each changed topic; the subscriber gets the new feed", async () => {
    const hubUrl = `${hub.base}/api/websub/hub`;
    const before = pingsLogged(hub);
    const run = await publish({ DATA_DIR: dataNext, DIST_DIR: site.distDir, HUB_URL: hubUrl });
    expect(run.code, run.stderr).toBe(0);
    for (const topic of TOPICS) expect(run.stdout).toContain(`Pinged ${hubUrl} for ${topic}`);
    // What the build produced, then what subscribers get.
    expect(run.stdout).toMatch(
      /Built \d+ files from 273 reviews \(0 removed\) in [\d.]+ s; against the previous build:/,
    );
    expect(run.stdout).toMatch(/^ {2}\d+ changed: .*\/api\/feed\.json/m);
    // The new review's page, and its own social card (the newest reviews have one).
    expect(run.stdout).toMatch(/^ {2}\d+ added: .*\/reviews\/2026-11-21-hub-test\//m);
    expect(run.stdout).toMatch(/^ {2}\d+ added: .*\/og\/reviews\/2026-11-21-hub-test\.png/m);
    for (const topic of TOPICS) expect(run.stdout).toContain(`  ${topic}: changed, subscribers are being notified`);
    await waitFor("the pings in the sidecar's log", () => pingsLogged(hub) - before === TOPICS.length, 5000);
    const newest = distDocument(site.distDir, "/feed.xml");
    await waitFor("the delivery", () => subscriber.deliveriesTo("/publish/feed").length === 1, 10_000);
    const [delivery] = subscriber.deliveriesTo("/publish/feed");
    expect(delivery?.body.equals(newest.body)).toBe(true);
    expect(delivery?.headers["content-type"]).toBe(newest.contentType);
    expect(readHubState(site.stateDir).topics.get(FEED)).toBe(newest.sha256);
  });

  it("a second run with unchanged data says no topic changed and does not ping", async () => {
    const hubUrl = `${hub.base}/api/websub/hub`;
    const before = pingsLogged(hub);
    const run = await publish({ DATA_DIR: dataNext, DIST_DIR: site.distDir, HUB_URL: hubUrl });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("no topic changed, so the hub is not pinged");
    expect(run.stdout).toContain("  no document changed");
    for (const topic of TOPICS) expect(run.stdout).toContain(`  ${topic}: unchanged, subscribers are not notified`);
    expect(run.stdout).not.toContain("Pinged");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pingsLogged(hub)).toBe(before);
    expect(subscriber.deliveriesTo("/publish/feed")).toHaveLength(1);
  });

  it("with the hub down it retries PUBLISH_ATTEMPTS times and exits 1 naming the hub URL", async () => {
    // A port that was just free: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const hubUrl = `http://127.0.0.1:${port}/api/websub/hub`;
    mkdirSync(downDist, { recursive: true });
    const started = Date.now();
    const run = await publish({ DATA_DIR: dataNext, DIST_DIR: downDist, HUB_URL: hubUrl, PUBLISH_ATTEMPTS: "2" });
    expect(run.code, run.stdout).toBe(1);
    expect(run.stderr).toContain(`The hub at ${hubUrl} never answered`);
    expect(run.stderr).toContain("(attempt 1, 1 left)");
    expect(run.stderr).toContain("(attempt 2, 0 left)");
    expect(run.stderr.match(/Ping for .* failed/g)).toHaveLength(2);
    expect(run.stdout).not.toContain("Pinged");
    expect(Date.now() - started).toBeLessThan(45_000);
  });

  it("after a failed ping, running publish again (as its message advises) pings the hub", async () => {
    // Regression: the failed run already swapped its build into DIST_DIR; the publisher now compares
    // with the hashes it last pinged successfully, not with the previous build.
    const hubUrl = `${hub.base}/api/websub/hub`;
    const run = await publish({ DATA_DIR: dataNext, DIST_DIR: downDist, HUB_URL: hubUrl });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Pinged ${hubUrl} for ${FEED}`);
  });
});

describe("npm run publish after the sidecar picked the build up on its own", () => {
  it("says per topic that subscribers were already notified, not that nothing changed", async () => {
    const site = sidecarEnv("auto", { RELOAD_INTERVAL_MS: "100" });
    const hub = await startHubSidecar(site.env, sidecars);
    const hubUrl = `${hub.base}/api/websub/hub`;
    // `npm run build` first (the sidecar loads it and distributes the changed topics), then publish.
    const build = await runScript("scripts/build.ts", [], {
      DATA_DIR: dataNext,
      DIST_DIR: site.distDir,
      SITE_URL: TEST_SITE_URL,
    });
    expect(build.code, build.stderr).toBe(0);
    const newest = distDocument(site.distDir, "/feed.xml").sha256;
    await waitFor("the sidecar's own reload", () => readHubState(site.stateDir).topics.get(FEED) === newest, 10_000);
    const run = await publish({ DATA_DIR: dataNext, DIST_DIR: site.distDir, HUB_URL: hubUrl });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Accepted: nothing changed");
    for (const topic of TOPICS) {
      expect(run.stdout).toContain(
        `  ${topic}: changed, subscribers were already notified (the sidecar had picked this build up on its own)`,
      );
    }
  });
});

describe("npm run publish with HUB_PUBLISH_TOKEN on the sidecar", () => {
  let hub: HubSidecar;
  let site: ReturnType<typeof sidecarEnv>;

  beforeAll(async () => {
    site = sidecarEnv("token", { HUB_PUBLISH_TOKEN: TOKEN });
    hub = await startHubSidecar(site.env, sidecars);
  });

  it("a wrong token is refused and the run exits 1", async () => {
    const hubUrl = `${hub.base}/api/websub/hub`;
    const distDir = path.join(work, "wrong-token-dist");
    const run = await publish({
      DATA_DIR: dataNext,
      DIST_DIR: distDir,
      HUB_URL: hubUrl,
      HUB_PUBLISH_TOKEN: "not-the-right-token-at-all",
    });
    expect(run.code, run.stdout).toBe(1);
    expect(run.stderr).toContain(`The hub refused the ping for ${FEED}: 401`);
    expect(run.stderr).toContain("HUB_PUBLISH_TOKEN");
    expect(run.stdout).not.toContain("Pinged");
    // Refusals are not retried.
    expect(run.stderr).not.toContain("Ping for");
  });

  it("a ping without a token is refused too", async () => {
    const answer = await hubPost(hub.base, { "hub.mode": "publish", "hub.url": FEED });
    expect(answer.status).toBe(401);
  });

  it("the same token succeeds", async () => {
    const hubUrl = `${hub.base}/api/websub/hub`;
    const run = await publish({
      DATA_DIR: dataNext,
      DIST_DIR: site.distDir,
      HUB_URL: hubUrl,
      HUB_PUBLISH_TOKEN: TOKEN,
    });
    expect(run.code, run.stderr).toBe(0);
    for (const topic of TOPICS) expect(run.stdout).toContain(`Pinged ${hubUrl} for ${topic}`);
    expect(readHubState(site.stateDir).topics.get(FEED)).toBe(distDocument(site.distDir, "/feed.xml").sha256);
  });
});
