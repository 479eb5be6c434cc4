/**
 * The hub's log (issue 18): every delivery failure, removal and verification failure is logged with
 * the callback's host and the reason, and never with a secret (hub.secret, or a token in the
 * callback's query).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { blackHole } from "./support/black-hole.ts";
import { HttpsSubscriber } from "./support/https-subscriber.ts";
import { buildVariant, type HubEnv, startHubEnv, TOPICS } from "./support/hub-env.ts";

const SECRET = "hub-secret-never-logged";
const TOKEN = "token-never-logged";
let sub: HttpsSubscriber;
let env: HubEnv;
let work: string;
let changed: string;
let lines: Record<string, unknown>[];
let raw: string;

beforeAll(async () => {
  sub = await HttpsSubscriber.start();
  work = mkdtempSync(path.join(tmpdir(), "hub-logging-"));
  changed = await buildVariant(work, "logged", { id: "2026-11-22-hub-log", date: "2026-11-22" });
});

afterAll(async () => {
  await sub.close();
  rmSync(work, { recursive: true, force: true });
});

async function startLoggedEnv(): Promise<void> {
  lines = [];
  raw = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw += chunk.toString("utf8");
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  env = await startHubEnv({ dist: inject("sampleDist"), ca: sub.ca, logger: pino({ level: "info" }, sink) });
}

afterEach(async () => {
  sub.release("ok");
  await env.close();
});

const logged = (msg: string) => lines.filter((line) => line.msg === msg);
const subscribeForm = (callback: string) => ({
  "hub.mode": "subscribe",
  "hub.topic": TOPICS.reviews,
  "hub.callback": callback,
  "hub.secret": SECRET,
});

describe("the hub's log", () => {
  it("names the callback host and the reason of each failed delivery and of the removal, without secrets", async () => {
    await startLoggedEnv();
    const callback = sub.url(`/logged/failing?token=${TOKEN}`);
    expect((await env.post(subscribeForm(callback))).status).toBe(202);
    await env.hub.idle();
    sub.queue("/logged/failing", "POST", ["error", "redirect", "error"]);
    await env.switchTo(changed);
    await env.hub.idle();
    const host = new URL(callback).host;
    expect(logged("websub delivery failed")).toMatchObject([
      { host, topic: TOPICS.reviews, reason: "callback answered 500", failures: 1 },
      { host, topic: TOPICS.reviews, reason: "callback answered 302", failures: 2 },
    ]);
    expect(logged("websub subscription removed")).toMatchObject([
      { host, topic: TOPICS.reviews, reason: "3 consecutive delivery failures (last: callback answered 500)" },
    ]);
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toContain(TOKEN);
  });

  it("logs a 410 removal and a refused verification with host and reason", async () => {
    await startLoggedEnv();
    const gone = sub.url(`/logged/gone?token=${TOKEN}`);
    sub.on("/logged/gone", { GET: "echo", POST: "gone" });
    expect((await env.post(subscribeForm(gone))).status).toBe(202);
    const refusing = sub.url(`/logged/refusing?token=${TOKEN}`);
    sub.on("/logged/refusing", { GET: "not-found" });
    expect((await env.post(subscribeForm(refusing))).status).toBe(202);
    await env.hub.idle();
    expect(logged("websub verification failed")).toMatchObject([
      { host: new URL(refusing).host, mode: "subscribe", reason: "callback answered 404" },
    ]);
    await env.switchTo(changed);
    await env.hub.idle();
    expect(logged("websub subscription removed")).toMatchObject([
      { host: new URL(gone).host, reason: "callback answered 410 Gone" },
    ]);
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toContain(TOKEN);
  });

  it("logs every failed verification, both modes, with the callback host and the reason, never a secret, token or challenge", async () => {
    const hole = await blackHole("127.0.0.2");
    try {
      await startLoggedEnv();
      const wrong = sub.url(`/logged/wrong?token=${TOKEN}`);
      sub.on("/logged/wrong", { GET: "wrong-echo" });
      const failing = sub.url(`/logged/error?token=${TOKEN}`);
      sub.on("/logged/error", { GET: "error" });
      const silent = `https://127.0.0.2:${hole.port}/logged/silent?token=${TOKEN}`;
      const closed = `https://127.0.0.1:1/logged/closed?token=${TOKEN}`;
      for (const callback of [wrong, failing, silent, closed]) {
        expect((await env.post(subscribeForm(callback))).status).toBe(202);
      }
      expect(
        (await env.post({ "hub.mode": "unsubscribe", "hub.topic": TOPICS.reviews, "hub.callback": failing })).status,
      ).toBe(202);
      await env.hub.idle();
      const failed = logged("websub verification failed");
      const seen = failed.map((line) => `${line.mode} ${line.host}: ${line.reason}`).sort();
      const host = (callback: string) => new URL(callback).host;
      expect(seen).toEqual(
        [
          `subscribe ${host(wrong)}: the answer was not the challenge`,
          `subscribe ${host(failing)}: callback answered 500`,
          `unsubscribe ${host(failing)}: callback answered 500`,
          `subscribe ${host(silent)}: no answer within the timeout`,
          `subscribe ${host(closed)}: request failed (ECONNREFUSED)`,
        ].sort(),
      );
      for (const line of failed) expect(line).toMatchObject({ level: 40, topic: TOPICS.reviews });
      const challenges = sub.verifications("/logged/wrong").map((r) => r.query.get("hub.challenge") ?? "");
      expect(challenges).toHaveLength(1);
      expect(raw).not.toContain(challenges[0]);
      expect(raw).not.toContain(SECRET);
      expect(raw).not.toContain(TOKEN);
    } finally {
      await hole.close();
    }
  });
});
