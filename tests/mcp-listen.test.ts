/**
 * MCP as a push channel (2026-07-28 `subscriptions/listen`): a client watching published documents
 * hears `notifications/resources/updated` for each watched document a new build changes, and only
 * for those; the open streams are bounded and closed when the process stops.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client, McpSubscription } from "@modelcontextprotocol/client";
import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import { MANIFEST_FILE } from "@riverbend/shared/bundle/manifest.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { TEST_SITE_URL as SITE } from "./support/global-setup.ts";
import { listen } from "./support/http.ts";
import { pinnedClient, postModern } from "./support/mcp-modern.ts";
import { ROOT, runBuild } from "./support/run-build.ts";

const NEW_REVIEW: Review = {
  id: "2026-11-25-listen-test",
  date: "2026-11-25",
  rating: 5,
  title: "Listen test review",
  text: "Written by the listen test: Kevin T. replaced a corroded shutoff valve under the kitchen sink.",
  author: { name: "Listen T." },
  verified: true,
  verification: { method: "job_record" },
  source: "direct",
  technicians: ["Kevin T."],
  services: ["faucet-fixture"],
  service_area: "davis",
};

const logger = pino({ level: "silent" });
const REVIEWS = `${SITE}/reviews.json`;
const ATOM = `${SITE}/feed.xml`;
const MAX_SUBSCRIPTIONS = 3;

let work: string;
let store: BundleStore;
let server: { base: string; close: () => Promise<void> };
const stopping = new AbortController();
const clients: Client[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "reviews-listen-"));
  cpSync(inject("sampleDist"), path.join(work, "dist"), { recursive: true });
  store = new BundleStore(path.join(work, "dist"), logger);
  server = await listen(
    createApp({
      config: { SITE_URL: SITE, SERVE_STATIC: true, MCP_MAX_SUBSCRIPTIONS: MAX_SUBSCRIPTIONS },
      store,
      logger,
      stopping: stopping.signal,
    }),
  );
});
afterAll(async () => {
  stopping.abort();
  await Promise.all(clients.map((c) => c.close()));
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

async function client(): Promise<Client> {
  const connected = await pinnedClient(server.base, "listen-test");
  clients.push(connected);
  return connected;
}

/** Rebuilds the site from data/ plus one new review into the served folder, as a deploy would. */
async function deployNewBuild(): Promise<void> {
  const data = path.join(work, "data");
  cpSync(path.join(ROOT, "data"), data, { recursive: true });
  writeFileSync(path.join(data, "reviews", `${NEW_REVIEW.id}.json`), `${JSON.stringify(NEW_REVIEW, null, 2)}\n`);
  const run = await runBuild({ DATA_DIR: data, DIST_DIR: path.join(work, "dist"), SITE_URL: SITE });
  expect(run.code, run.stderr).toBe(0);
}

describe("subscriptions/listen on published documents", () => {
  let watcher: Client;
  let subscription: McpSubscription;
  const updated: string[] = [];

  it("acknowledges a stream watching two documents", async () => {
    watcher = await client();
    watcher.setNotificationHandler("notifications/resources/updated", (notification) => {
      updated.push(notification.params.uri);
    });
    subscription = await watcher.listen({ resourceSubscriptions: [REVIEWS, ATOM] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [REVIEWS, ATOM] });
  });

  it("sends notifications/resources/updated for each watched document a new build changes, and reads give the new text", async () => {
    const before = (await watcher.readResource({ uri: REVIEWS })).contents[0];
    expect(JSON.stringify(before)).not.toContain(NEW_REVIEW.id);
    await deployNewBuild();
    expect(store.reload()).toBe(true);
    await vi.waitFor(() => expect([...updated].sort()).toEqual([REVIEWS, ATOM].sort()), { timeout: 5_000 });
    // The update evicted the client's cached read: the next read is the new document.
    const after = (await watcher.readResource({ uri: REVIEWS })).contents[0];
    expect(JSON.stringify(after)).toContain(NEW_REVIEW.id);
  });

  it("sends nothing when a build changes no watched document", async () => {
    updated.length = 0;
    // The same manifest written again: a swap, but every document has the same bytes.
    const manifest = path.join(work, "dist", MANIFEST_FILE);
    cpSync(manifest, `${manifest}.tmp`);
    rmSync(manifest);
    cpSync(`${manifest}.tmp`, manifest);
    rmSync(`${manifest}.tmp`);
    expect(store.reload()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(updated).toEqual([]);
  });

  it(`refuses a stream past MCP_MAX_SUBSCRIPTIONS (${MAX_SUBSCRIPTIONS}) open ones, and takes one again once a stream closes`, async () => {
    const others = await Promise.all(
      Array.from({ length: MAX_SUBSCRIPTIONS - 1 }, async () =>
        (await client()).listen({ resourceSubscriptions: [REVIEWS] }),
      ),
    );
    const extra = await client();
    await expect(extra.listen({ resourceSubscriptions: [REVIEWS] })).rejects.toThrow(/Subscription limit reached/);
    await others[0]?.close();
    await vi.waitFor(async () => {
      const again = await extra.listen({ resourceSubscriptions: [REVIEWS] });
      others[0] = again;
    });
  });

  it("closes the open streams when the process stops, and answers later requests 503", async () => {
    stopping.abort();
    expect(await subscription.closed).not.toBe("local");
    const late = await postModern(server.base, "tools/list");
    expect(late.status).toBe(503);
    expect(late.json?.error?.message).toMatch(/shutting down/);
  });
});
