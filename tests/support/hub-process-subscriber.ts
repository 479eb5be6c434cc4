import type { IncomingHttpHeaders } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { generate } from "selfsigned";

/** A self-signed certificate for 127.0.0.1 that is its own CA (the sidecar trusts it via HUB_EXTRA_CA_FILE). */
export interface TestCertificate {
  key: string;
  cert: string;
}

export async function testCertificate(): Promise<TestCertificate> {
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 7, ip: "127.0.0.1" },
          { type: 2, value: "localhost" },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/** One content distribution request (WebSub §7) as the subscriber saw it. */
export interface Delivery {
  path: string;
  body: Buffer;
  headers: IncomingHttpHeaders;
  arrivedAt: number;
  /** When the subscriber's answer was written out (undefined while the slow answer is pending). */
  answeredAt: number | undefined;
}

/** One verification of intent or denial GET (WebSub §5.2, §5.3). */
export interface Verification {
  path: string;
  mode: string;
  topic: string;
  leaseSeconds: string | null;
  at: number;
}

export interface Subscriber {
  /** https://127.0.0.1:PORT */
  base: string;
  deliveries: Delivery[];
  verifications: Verification[];
  /** How long each delivery waits before it is answered; may be changed while running. */
  delayMs: number;
  /** How long each verification GET waits before it is answered; may be changed while running. */
  verifyDelayMs: number;
  /** Deliveries being answered right now, and the most seen at once. */
  active: number;
  peak: number;
  /** Callback paths whose deliveries are never answered (a hanging subscriber). */
  hanging: Set<string>;
  /** Deliveries received by callback path. */
  deliveriesTo(path: string): Delivery[];
  close(): Promise<void>;
}

/**
 * A WebSub subscriber on 127.0.0.1 over HTTPS: echoes every subscribe/unsubscribe challenge (any
 * callback path), records verifications, denials and deliveries, and answers deliveries with 204
 * after `delayMs` so a fan-out stays in progress for a while.
 */
export async function startSubscriber(certificate: TestCertificate, options: { delayMs?: number } = {}) {
  const deliveries: Delivery[] = [];
  const verifications: Verification[] = [];
  let server: Server | undefined;
  const subscriber: Subscriber = {
    base: "",
    deliveries,
    verifications,
    delayMs: options.delayMs ?? 0,
    verifyDelayMs: 0,
    active: 0,
    peak: 0,
    hanging: new Set(),
    deliveriesTo: (path) => deliveries.filter((d) => d.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        if (!server) return resolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    const url = new URL(req.url ?? "/", "https://127.0.0.1");
    if (req.method === "GET") {
      const mode = url.searchParams.get("hub.mode") ?? "";
      verifications.push({
        path: url.pathname,
        mode,
        topic: url.searchParams.get("hub.topic") ?? "",
        leaseSeconds: url.searchParams.get("hub.lease_seconds"),
        at: Date.now(),
      });
      const challenge = url.searchParams.get("hub.challenge");
      const answer = () => {
        if (res.destroyed) return;
        if ((mode === "subscribe" || mode === "unsubscribe") && challenge) {
          res.writeHead(200, { "content-type": "application/octet-stream" }).end(challenge);
        } else if (mode === "denied") {
          res.writeHead(200).end();
        } else {
          res.writeHead(404).end();
        }
      };
      if (subscriber.verifyDelayMs > 0) setTimeout(answer, subscriber.verifyDelayMs);
      else answer();
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const delivery: Delivery = {
        path: url.pathname,
        body: Buffer.concat(chunks),
        headers: req.headers,
        arrivedAt: Date.now(),
        answeredAt: undefined,
      };
      deliveries.push(delivery);
      subscriber.active++;
      subscriber.peak = Math.max(subscriber.peak, subscriber.active);
      const answer = () => {
        subscriber.active--;
        if (res.destroyed) return;
        res.on("finish", () => {
          delivery.answeredAt = Date.now();
        });
        res.writeHead(204).end();
      };
      if (subscriber.hanging.has(url.pathname)) return;
      if (subscriber.delayMs > 0) setTimeout(answer, subscriber.delayMs);
      else answer();
    });
  });
  const listening = server;
  await new Promise<void>((resolve, reject) => {
    listening.once("error", reject);
    listening.listen(0, "127.0.0.1", () => resolve());
  });
  subscriber.base = `https://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  return subscriber;
}
