/**
 * A scriptable HTTPS WebSub subscriber for hub tests: listens on 127.0.0.1 (OS-assigned port) with a
 * certificate signed by a throwaway CA made at start, records every request byte for byte, and
 * answers per path and method as scripted.
 */

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { generate } from "selfsigned";

/**
 * How the subscriber answers:
 * - `echo`: 200 with the `hub.challenge` of the query as the body (empty body without one)
 * - `wrong-echo`: 200 with a body that is not the challenge
 * - `echo-newline`: 200 with the challenge followed by a newline
 * - `ok`: 200 with a short body
 * - `not-found` 404, `error` 500, `gone` 410
 * - `redirect`: 302 to {@link NEVER_PATH}, which must never be requested
 * - `hang`: never answers (the connection is destroyed when the subscriber closes)
 * - `hold`: waits until {@link HttpsSubscriber.release} and then answers as told
 */
export type Mode =
  | "echo"
  | "wrong-echo"
  | "echo-newline"
  | "ok"
  | "not-found"
  | "error"
  | "gone"
  | "redirect"
  | "hang"
  | "hold";

/** Where a `redirect` points; a hub that follows redirects requests it. */
export const NEVER_PATH = "/never-follow-this";

export interface RecordedRequest {
  method: string;
  /** The request target exactly as sent on the request line (path and raw query). */
  url: string;
  /** The path part of `url`. */
  path: string;
  /** The raw query string (without "?"), "" if none. */
  rawQuery: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  /** Milliseconds since the epoch when the body had been read. */
  at: number;
}

export interface Script {
  GET?: Mode;
  POST?: Mode;
}

interface Held {
  request: RecordedRequest;
  answer: (mode: Exclude<Mode, "hold" | "hang">) => void;
}

const DEFAULTS: Required<Script> = { GET: "echo", POST: "ok" };

/** A certificate authority and a server certificate for 127.0.0.1, ::1 and localhost. */
export async function makeTestCertificates(): Promise<{ ca: string; cert: string; key: string }> {
  const ca = await generate([{ name: "commonName", value: "WebSub hub test CA" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keyType: "ec",
    algorithm: "sha256",
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 7, ip: "127.0.0.1" },
          { type: 7, ip: "::1" },
          { type: 2, value: "localhost" },
        ],
      },
    ],
  });
  return { ca: ca.cert, cert: leaf.cert, key: leaf.private };
}

export class HttpsSubscriber {
  readonly requests: RecordedRequest[] = [];
  /** TCP connections accepted so far (a refused connect never gets here). */
  connections = 0;
  readonly #scripts = new Map<string, Script>();
  readonly #queues = new Map<string, Mode[]>();
  readonly #held: Held[] = [];
  readonly #sockets = new Set<Socket>();
  readonly #waiters = new Set<() => void>();

  readonly server: Server;
  readonly ca: string;
  readonly port: number;

  private constructor(server: Server, ca: string, port: number) {
    this.server = server;
    this.ca = ca;
    this.port = port;
  }

  static async start(certificates?: { ca: string; cert: string; key: string }): Promise<HttpsSubscriber> {
    const { ca, cert, key } = certificates ?? (await makeTestCertificates());
    let subscriber: HttpsSubscriber | undefined;
    const server = createServer({ cert, key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => subscriber?.handle(req, res, Buffer.concat(chunks)));
    });
    server.on("connection", (socket: Socket) => subscriber?.track(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    subscriber = new HttpsSubscriber(server, ca, (server.address() as AddressInfo).port);
    return subscriber;
  }

  /** https://127.0.0.1:PORT */
  get origin(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  /** A callback URL on this subscriber; `pathAndQuery` is used as it is. */
  url(pathAndQuery: string): string {
    return `${this.origin}${pathAndQuery}`;
  }

  /** Sets (or switches) how a path answers each method; unspecified methods keep their mode. */
  on(path: string, script: Script): this {
    this.#scripts.set(path, { ...(this.#scripts.get(path) ?? {}), ...script });
    return this;
  }

  /** One-shot answers for `method` on `path`, used in order before the path's script. */
  queue(path: string, method: "GET" | "POST", modes: Mode[]): this {
    const key = `${method} ${path}`;
    this.#queues.set(key, [...(this.#queues.get(key) ?? []), ...modes]);
    return this;
  }

  /** Every recorded request to `path` (any query), optionally of one method. */
  to(path: string, method?: "GET" | "POST"): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path && (method === undefined || r.method === method));
  }

  /** Verification GETs (with a challenge) to `path`. */
  verifications(path: string): RecordedRequest[] {
    return this.to(path, "GET").filter((r) => r.query.has("hub.challenge"));
  }

  /** Denial GETs (hub.mode=denied) to `path`. */
  denials(path: string): RecordedRequest[] {
    return this.to(path, "GET").filter((r) => r.query.get("hub.mode") === "denied");
  }

  /** Content deliveries (POSTs) to `path`. */
  deliveries(path: string): RecordedRequest[] {
    return this.to(path, "POST");
  }

  get heldCount(): number {
    return this.#held.length;
  }

  /** Answers every held request (oldest first) as `mode`; returns how many were released. */
  release(mode: Exclude<Mode, "hold" | "hang"> = "ok"): number {
    const held = this.#held.splice(0);
    for (const h of held) h.answer(mode);
    return held.length;
  }

  /** Resolves once `predicate` holds (checked after every request), or rejects after `timeoutMs`. */
  async waitFor(predicate: () => boolean, timeoutMs = 5000, what = "condition"): Promise<void> {
    if (predicate()) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`subscriber: ${what} not reached within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  /** Forgets the recorded requests (scripts stay). */
  clear(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.release("ok");
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Socket): void {
    this.connections++;
    this.#sockets.add(socket);
    socket.on("close", () => this.#sockets.delete(socket));
  }

  private handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const rawQuery = q === -1 ? "" : url.slice(q + 1);
    const record: RecordedRequest = {
      method: req.method ?? "",
      url,
      path: q === -1 ? url : url.slice(0, q),
      rawQuery,
      query: new URLSearchParams(rawQuery),
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body,
      at: Date.now(),
    };
    this.requests.push(record);
    const method = record.method === "POST" ? "POST" : "GET";
    const queued = this.#queues.get(`${method} ${record.path}`);
    const mode = queued?.shift() ?? this.#scripts.get(record.path)?.[method] ?? DEFAULTS[method];
    const answer = (m: Exclude<Mode, "hold" | "hang">) => respond(res, m, record);
    if (mode === "hold") this.#held.push({ request: record, answer });
    else if (mode !== "hang") answer(mode);
    for (const waiter of [...this.#waiters]) waiter();
  }
}

const ANSWERS: Record<
  Exclude<Mode, "hold" | "hang">,
  (challenge: string) => [number, string, Record<string, string>?]
> = {
  echo: (challenge) => [200, challenge],
  "wrong-echo": (challenge) => [200, `${challenge.slice(1)}x`],
  "echo-newline": (challenge) => [200, `${challenge}\n`],
  ok: () => [200, "thanks"],
  "not-found": () => [404, "no such subscription"],
  error: () => [500, "subscriber failed"],
  gone: () => [410, "gone"],
  redirect: () => [302, "moved", { location: NEVER_PATH }],
};

function respond(res: ServerResponse, mode: Exclude<Mode, "hold" | "hang">, record: RecordedRequest): void {
  if (res.destroyed || res.headersSent) return;
  const [status, body, headers = {}] = ANSWERS[mode](record.query.get("hub.challenge") ?? "");
  res.writeHead(status, { "content-type": "text/plain", ...headers });
  res.end(body);
}
