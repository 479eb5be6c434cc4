/**
 * WebSub hub, requests it refuses at intake (W3C REC 2018-01-23 §5.1): malformed or foreign
 * requests get a 4xx in plain text, and callbacks that point at private, loopback or metadata
 * addresses are refused before the hub sends anything (SSRF guard). Background and decisions:
 * /work/shared/notes/websub.md.
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

describe("rejected requests: 4xx in plain text, no outbound request", () => {
  it("refuses callbacks that are not https, have user info or a fragment, or are too long", async () => {
    const outbound = countOutbound();
    const requests = sub.requests.length;
    const connections = sub.connections;
    const bad = [
      `http://127.0.0.1:${sub.port}${fresh()}`,
      `HTTP://127.0.0.1:${sub.port}${fresh()}`,
      `ftp://127.0.0.1/${fresh()}`,
      `https://user:pw@127.0.0.1:${sub.port}${fresh()}`,
      `https://user@127.0.0.1:${sub.port}${fresh()}`,
      `${sub.url(fresh())}#frag`,
      fresh(),
      "not a url",
      sub.url(`/${"a".repeat(2100)}`),
    ];
    for (const callback of bad) {
      const response = await env.post(subscribeForm(TOPICS.atom, callback));
      expect(response.status, callback).toBe(400);
      expectPlainText(response);
    }
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
    expect(sub.requests.length).toBe(requests);
    expect(sub.connections).toBe(connections);
    expect(await env.store.countSubscriptions()).toBe(0);
  });

  // Regression (issue 20): the URL parser drops CR, LF and tabs and encodes spaces, so such callbacks
  // were accepted with 202 and verified at another URL than the one given.
  it("refuses callbacks with characters a URL cannot contain as written, naming the character and where", async () => {
    const outbound = countOutbound();
    const requests = sub.requests.length;
    const base = sub.url(fresh());
    const cases: [string, string][] = [
      [`${base}\r\nX-Injected: 1`, `contains a carriage return (CR) at position ${base.length + 1}`],
      [`${base}\nx`, `contains a line feed (LF) at position ${base.length + 1}`],
      [`${base}?a=b c`, `contains a space at position ${base.length + 5}`],
      [` ${base}`, "contains a space at position 1"],
      [`${base}\tx`, "contains the character U+0009"],
      [`${base}?x=<script>`, 'contains "<" (U+003C)'],
      [`${base}?q="a"`, 'contains """ (U+0022)'],
      [`${base}/caf\u00e9`, 'contains "\u00e9" (U+00E9)'],
      [`${base}?p=%zz`, `has a "%" at position ${base.length + 4} that is not followed by two hex digits`],
    ];
    for (const [callback, reason] of cases) {
      const response = await env.post(subscribeForm(TOPICS.atom, callback));
      expect(response.status, JSON.stringify(callback)).toBe(400);
      expect(response.text).toContain(`hub.callback ${reason}`);
      expectPlainText(response);
    }
    const unsubscribe = await env.post({
      "hub.mode": "unsubscribe",
      "hub.topic": TOPICS.atom,
      "hub.callback": `${base}\r\n`,
    });
    expect(unsubscribe.status).toBe(400);
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
    expect(sub.requests.length).toBe(requests);
  });

  it("refuses missing, empty, unknown and repeated fields", async () => {
    const outbound = countOutbound();
    const callback = sub.url(fresh());
    const ok = new URLSearchParams(subscribeForm(TOPICS.atom, callback)).toString();
    const cases: [string, string][] = [
      ["no mode", `hub.topic=${encodeURIComponent(TOPICS.atom)}&hub.callback=${encodeURIComponent(callback)}`],
      ["no topic", `hub.mode=subscribe&hub.callback=${encodeURIComponent(callback)}`],
      ["no callback", `hub.mode=subscribe&hub.topic=${encodeURIComponent(TOPICS.atom)}`],
      ["empty callback", `${ok.replace(/hub\.callback=[^&]*/, "hub.callback=")}`],
      ["empty mode", `${ok.replace("hub.mode=subscribe", "hub.mode=")}`],
      ["mode foo", `${ok.replace("hub.mode=subscribe", "hub.mode=foo")}`],
      ["mode in capitals", `${ok.replace("hub.mode=subscribe", "hub.mode=SUBSCRIBE")}`],
      ["empty body", ""],
      ["repeated topic", `${ok}&hub.topic=${encodeURIComponent(TOPICS.reviews)}`],
      ["repeated identical topic", `${ok}&hub.topic=${encodeURIComponent(TOPICS.atom)}`],
      ["repeated callback", `${ok}&hub.callback=${encodeURIComponent(sub.url(fresh()))}`],
      ["repeated mode", `${ok}&hub.mode=unsubscribe`],
      ["repeated secret", `${ok}&hub.secret=a&hub.secret=b`],
      ["repeated lease", `${ok}&hub.lease_seconds=100000&hub.lease_seconds=200000`],
    ];
    for (const [name, body] of cases) {
      const response = await env.post(body);
      expect(response.status, name).toBe(400);
      expectPlainText(response);
    }
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
  });

  it("accepts only the three self URLs exactly as advertised", async () => {
    const outbound = countOutbound();
    const topics = [
      "https://reviews.test/feed.xml/",
      "http://reviews.test/feed.xml",
      "https://reviews.test/feed.xml?x=1",
      "https://reviews.test/feed.xml#x",
      "https://REVIEWS.test/feed.xml",
      "https://reviews.test:443/feed.xml",
      "https://reviews.test//feed.xml",
      "https://reviews.test/api/feed.json/",
      "https://reviews.test/reviews.json?",
      "https://reviews.test/insights.json",
      "https://reviews.test/",
      "https://example.com/feed.xml",
      "/feed.xml",
    ];
    for (const topic of topics) {
      const response = await env.post(subscribeForm(topic, sub.url(fresh())));
      expect(response.status, topic).toBe(400);
      expectPlainText(response);
    }
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
  });

  it("answers 415 to anything but a form body, and 405 to other methods", async () => {
    const outbound = countOutbound();
    const form = subscribeForm(TOPICS.atom, sub.url(fresh()));
    const hubUrl = `${env.base}/api/websub/hub`;
    const attempts: [string, RequestInit][] = [
      ["JSON", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(form) }],
      [
        "text/plain",
        { method: "POST", headers: { "content-type": "text/plain" }, body: new URLSearchParams(form).toString() },
      ],
      ["no body", { method: "POST" }],
    ];
    for (const [name, init] of attempts) {
      const response = await fetch(hubUrl, init);
      expect(response.status, name).toBe(415);
      expect(response.headers.get("content-type"), name).toMatch(/^text\/plain/);
    }
    const get = await fetch(hubUrl);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    await get.text();
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
  });
});

describe("SSRF guard", () => {
  const literals = [
    "https://10.0.0.1/cb",
    "https://192.168.1.10/cb",
    "https://169.254.169.254/latest/meta-data/",
    "https://0.0.0.0/cb",
    "https://[::1]/cb",
    "https://[::ffff:7f00:1]/cb",
    "https://[::ffff:127.0.0.1]:8443/cb",
    "https://[::]/cb",
    "https://[fe80::1]/cb",
    "https://[fd00::1]/cb",
    "https://127.0.0.1/cb",
    "https://2130706433/cb",
    "https://0x7f.1/cb",
    "https://100.64.0.1/cb",
    // Issue 20: IPv4-compatible, NAT64, 6to4 and Teredo addresses carrying loopback, and other
    // special-purpose IPv6 ranges.
    "https://[::127.0.0.1]:8443/cb",
    "https://[::7f00:1]/cb",
    "https://[64:ff9b::127.0.0.1]/cb",
    "https://[64:ff9b:1::808:808]/cb",
    "https://[2002:7f00:1::1]/cb",
    "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/cb",
    "https://[100::1]/cb",
    "https://[2001:db8::1]/cb",
    "https://192.0.0.8/cb",
  ];

  it("refuses private, loopback and metadata IP literals with 400 before any request", async () => {
    const strict = await otherEnv({ allowedCidrs: [] });
    const outbound = countOutbound(strict);
    for (const callback of literals) {
      const response = await strict.post(subscribeForm(TOPICS.atom, callback));
      expect(response.status, callback).toBe(400);
      expectPlainText(response);
    }
    await strict.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
    expect(await strict.store.countSubscriptions()).toBe(0);
  });

  it("allows loopback only when configured, and nothing else private even then", async () => {
    const outbound = countOutbound();
    for (const callback of [
      "https://10.0.0.1/cb",
      "https://169.254.169.254/",
      "https://0.0.0.0/cb",
      "https://[fd00::1]/",
      `https://[::127.0.0.1]:${sub.port}/cb`,
      `https://[64:ff9b::7f00:1]:${sub.port}/cb`,
      `https://[2002:7f00:1::1]:${sub.port}/cb`,
    ]) {
      const response = await env.post(subscribeForm(TOPICS.atom, callback));
      expect(response.status, callback).toBe(400);
    }
    await env.hub.idle();
    expect(outbound).not.toHaveBeenCalled();
  });

  it("accepts a host name that resolves to loopback (202) but never connects to it", async () => {
    const strict = await otherEnv({ allowedCidrs: [] });
    const connections = sub.connections;
    const requests = sub.requests.length;
    const path = fresh();
    const callback = `https://localhost:${sub.port}${path}`;
    const response = await strict.post(subscribeForm(TOPICS.reviews, callback));
    expect(response.status).toBe(202);
    await strict.hub.idle();
    expect(sub.connections).toBe(connections);
    expect(sub.requests.length).toBe(requests);
    expect(await strict.store.getSubscription(TOPICS.reviews, callback)).toBeUndefined();
    expect(strict.hub.outcomes).toMatchObject({ verified: 0, unverified: 1 });
  });
});
