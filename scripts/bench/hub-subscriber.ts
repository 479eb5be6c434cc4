import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";

/**
 * The benchmark's subscriber side, in a child process of its own: one HTTPS server on 127.0.0.1 that
 * answers any callback path. It echoes verification challenges, answers deliveries with 204 after
 * DELAY_MS, counts deliveries per path and the most answered at once, and talks to the parent over IPC.
 *
 * Paths listed in HANG_PATHS (comma-separated) receive deliveries but never answer them, like a
 * subscriber that hangs; the hub's timeout ends those requests.
 *
 * Parent → child: {type:"expect", count, sha256} resets the delivery counters and asks for a "done"
 * message once `count` distinct paths received a body with that hash (and a "half" one half way); {type:"stats"}; {type:"stop"}.
 */
const [keyFile, certFile] = process.argv.slice(2);
if (!keyFile || !certFile || !process.send) {
  console.error("usage: node --import tsx scripts/bench/hub-subscriber.ts KEY CERT (as an IPC child)");
  process.exit(2);
}
const send = (message: object) => process.send?.(message);
const delayMs = Number(process.env.DELAY_MS ?? 0);
const hanging = new Set((process.env.HANG_PATHS ?? "").split(",").filter(Boolean));

let verifications = 0;
let deliveries = 0;
let wrongBodies = 0;
let active = 0;
let peak = 0;
const delivered = new Set<string>();
let expected: { count: number; sha256: string; half: boolean; done: boolean } | undefined;

const server = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
  const url = new URL(req.url ?? "/", "https://127.0.0.1");
  if (req.method === "GET") {
    const challenge = url.searchParams.get("hub.challenge");
    if (challenge) {
      verifications++;
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(challenge);
    } else {
      res.writeHead(url.searchParams.get("hub.mode") === "denied" ? 200 : 404).end();
    }
    return;
  }
  active++;
  peak = Math.max(peak, active);
  const hash = createHash("sha256");
  req.on("data", (chunk: Buffer) => hash.update(chunk));
  req.on("end", () => {
    deliveries++;
    const digest = hash.digest("hex");
    if (expected && digest === expected.sha256) delivered.add(url.pathname);
    else wrongBodies++;
    // Half way: the parent measures the sidecar's memory in the middle of the fan-out.
    if (expected && !expected.half && delivered.size >= Math.ceil(expected.count / 2)) {
      expected.half = true;
      send({ type: "half", at: Date.now() });
    }
    // Received by every subscriber: the fan-out is complete (answers may still be on their way).
    if (expected && !expected.done && delivered.size >= expected.count) {
      expected.done = true;
      send({ type: "done", at: Date.now(), deliveries, distinct: delivered.size, peak });
    }
    if (hanging.has(url.pathname)) {
      // Never answered; the request counts as in progress until the hub gives up on it.
      res.on("close", () => active--);
      return;
    }
    const answer = () => {
      active--;
      if (!res.destroyed) res.writeHead(204).end();
    };
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
});

process.on("message", (message: { type: string; count?: number; sha256?: string }) => {
  if (message.type === "expect") {
    expected = { count: message.count ?? 0, sha256: message.sha256 ?? "", half: false, done: false };
    deliveries = 0;
    wrongBodies = 0;
    peak = 0;
    delivered.clear();
    send({ type: "expecting" });
  } else if (message.type === "stats") {
    send({ type: "stats", verifications, deliveries, distinct: delivered.size, wrongBodies, peak });
  } else if (message.type === "stop") {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
// The parent is gone: so is the subscriber.
process.on("disconnect", () => process.exit(0));

server.listen(0, "127.0.0.1", () => {
  console.log(`listening on https://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
