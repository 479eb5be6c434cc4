import { createHmac, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { sameSecret } from "../http/same-secret.ts";
import { RevokedIds } from "./revoked-ids.ts";

export type SessionCheck = "valid" | "unknown";

/**
 * Terminated session ids shared between replicas (and kept across restarts), e.g. in PostgreSQL.
 * `has` answers from memory; `add` records an id for every replica, in the background.
 */
export interface SessionRevocations {
  has(id: string): boolean;
  add(id: string, expiresAt: number): void;
}

/**
 * MCP session ids that validate themselves: `<issued>.<expires>.<nonce>.<hmac>`, signed with a
 * secret shared by every replica. Any process with the same secret accepts a session another one
 * issued, also after a restart, and nothing is stored per open session. Only terminated sessions
 * are remembered (until they would have expired anyway): in a bounded cache of this process and, when
 * `revocations` are given, for every replica and restart.
 */
export class SessionTokens {
  readonly #secret: Buffer;
  readonly #terminated: RevokedIds;
  readonly #recent = new LRUCache<string, number>({ max: 1_000 });

  private readonly lifetimeSeconds: number;
  private readonly now: () => number;
  readonly #revocations: SessionRevocations | undefined;

  /** `remembered`: terminated ids kept in this process; evicting one refuses every id issued up to it. */
  constructor(
    secret: string,
    lifetimeSeconds: number,
    now: () => number = Date.now,
    revocations?: SessionRevocations,
    remembered = 100_000,
  ) {
    this.lifetimeSeconds = lifetimeSeconds;
    this.now = now;
    this.#revocations = revocations;
    this.#secret = Buffer.from(secret, "utf8");
    this.#terminated = new RevokedIds(remembered);
  }

  /** A secret for a single process, when none is configured. */
  static randomSecret(): string {
    return randomBytes(32).toString("base64url");
  }

  #sign(body: string): string {
    return createHmac("sha256", this.#secret).update(body).digest("base64url");
  }

  issue(): string {
    const issued = Math.floor(this.now() / 1000);
    const body = `${issued}.${issued + this.lifetimeSeconds}.${randomBytes(12).toString("base64url")}`;
    return `${body}.${this.#sign(body)}`;
  }

  check(id: string): SessionCheck {
    // Ids checked recently skip the HMAC; the cache is small and bounded, so abandoned sessions
    // still cost nothing.
    const expiresAt = this.#recent.get(id);
    if (expiresAt !== undefined) {
      return expiresAt > this.now() && !this.#isTerminated(id) ? "valid" : "unknown";
    }
    const parts = id.split(".");
    if (parts.length !== 4 || id.length > 200) return "unknown";
    const [issued, expires, nonce, signature] = parts as [string, string, string, string];
    if (!sameSecret(signature, this.#sign(`${issued}.${expires}.${nonce}`))) return "unknown";
    if (Number(expires) * 1000 <= this.now()) return "unknown";
    this.#recent.set(id, Number(expires) * 1000);
    return this.#isTerminated(id) ? "unknown" : "valid";
  }

  #isTerminated(id: string): boolean {
    return this.#terminated.has(id) || this.#revocations?.has(id) === true;
  }

  /** When a session id issued here stops being valid, in epoch milliseconds. */
  expiresAt(id: string): number {
    return Number(id.split(".")[1]) * 1000;
  }

  /** Ends a session here; the entry lives only until the session would have expired. */
  terminate(id: string): void {
    this.#terminated.add(id, this.expiresAt(id), this.now());
    this.#revocations?.add(id, this.expiresAt(id));
  }
}
