import { lookup as dnsLookup } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { rootCertificates } from "node:tls";
import type { Agent } from "undici";
import type { AddressPolicy } from "./address-policy.ts";

/** Path and query of an absolute URL exactly as written (a bare trailing "?" included). */
export function rawPath(url: string): string {
  const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "").replace(/#.*$/, "");
  if (rest === "") return "/";
  return rest.startsWith("?") ? `/${rest}` : rest;
}

export class OutboundRefused extends Error {
  override name = "OutboundRefused";
  /** Why, without the URL (whose query may carry a subscriber's token): safe to log. */
  readonly reason: string;

  constructor(target: string, reason: string) {
    super(`refused ${target}: ${reason}`);
    this.reason = reason;
  }
}

/** Why an outbound request failed, for logs: never the URL or a header (no secret can leak). */
export function failureReason(error: unknown): string {
  if (error instanceof OutboundRefused) return `address refused: ${error.reason}`;
  if (error instanceof Error && error.cause instanceof OutboundRefused) return failureReason(error.cause);
  if (!(error instanceof Error)) return "request failed";
  const code = (error as Error & { code?: unknown }).code;
  if (error.name === "TimeoutError" || error.name === "AbortError" || /timeout/i.test(String(code))) {
    return "no answer within the timeout";
  }
  return typeof code === "string" ? `request failed (${code})` : `request failed (${error.name})`;
}

/**
 * What an outbound request is spent from: verifications and deliveries (denials included) have
 * separate budgets, so a flood of verifications towards callbacks that never answer delays no
 * delivery.
 */
export type Budget = "verification" | "delivery";

/** Requests in flight at once from one budget; the rest wait their turn, oldest first. */
class Slots {
  readonly #limit: number;
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  peak = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  async take(): Promise<() => void> {
    if (this.#active >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#active++;
    this.peak = Math.max(this.peak, this.#active);
    return () => {
      this.#active--;
      this.#waiting.shift()?.();
    };
  }
}

export interface OutboundOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  /** Requests in flight at once across the hub, per budget. */
  concurrency: Readonly<Record<Budget, number>>;
  /** Extra PEM certificate authority to trust (for test subscribers); the system roots stay trusted. */
  extraCa?: string | undefined;
  userAgent: string;
}

export interface OutboundResponse {
  status: number;
  /** At most `maxBodyBytes` of the body, as text. */
  body: string;
}

/**
 * The one client for every outbound hub request (verification, delivery, denial): HTTPS only, no
 * redirects, timeouts, bounded concurrency per budget, and an SSRF guard that checks IP literals itself (undici
 * skips the lookup hook for them) and every address a host name resolves to, at connect time, so
 * DNS rebinding cannot slip a private address in between check and connect.
 */
export class GuardedClient {
  // Made on the first outbound request: importing undici is a sixteenth of the sidecar's start-up,
  // and a sidecar with nothing to deliver never needs it.
  #agent: Promise<Agent> | undefined;
  readonly #makeAgent: () => Promise<Agent>;
  readonly #slots: Record<Budget, Slots>;

  private readonly options: OutboundOptions;

  constructor(options: OutboundOptions) {
    this.options = options;
    this.#slots = {
      verification: new Slots(options.concurrency.verification),
      delivery: new Slots(options.concurrency.delivery),
    };
    const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
      dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
        if (error) return callback(error, "", 0);
        const list = addresses as { address: string; family: number }[];
        const refusal = list.map((a) => options.policy.refuse(a.address)).find((r) => r !== undefined);
        if (refusal || list.length === 0) {
          return callback(new OutboundRefused(hostname, refusal ?? "no address"), "", 0);
        }
        if (lookupOptions.all) return callback(null, list as never, 0);
        const first = list[0] as { address: string; family: number };
        return callback(null, first.address, first.family);
      });
    };
    this.#makeAgent = async () => {
      const { Agent } = await import("undici");
      return new Agent({
        connect: {
          lookup,
          timeout: options.timeoutMs,
          ...(options.extraCa ? { ca: [...rootCertificates, options.extraCa] } : {}),
        },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        connections: options.concurrency.verification + options.concurrency.delivery,
      });
    };
  }

  /** Refuses a URL before any connection: wrong scheme, or an IP literal the policy forbids. */
  check(url: string): void {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:") throw new OutboundRefused(url, "only https is used");
    const host = parsed.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host)) {
      const refusal = this.options.policy.refuse(host);
      if (refusal) throw new OutboundRefused(url, refusal);
    }
  }

  /** The most requests that were in flight at once from a budget. */
  peakActive(budget: Budget): number {
    return this.#slots[budget].peak;
  }

  async send(
    method: "GET" | "POST",
    url: string,
    init: { budget: Budget; headers?: Record<string, string>; body?: Uint8Array; maxBodyBytes: number },
  ): Promise<OutboundResponse> {
    this.check(url);
    const release = await this.#slots[init.budget].take();
    try {
      // The dispatcher takes the raw path: undici's request() would parse the whole URL and re-encode
      // the callback's own query (an apostrophe becomes %27), and WebSub wants it byte for byte.
      this.#agent ??= this.#makeAgent();
      const agent = await this.#agent;
      const response = await agent.request({
        origin: new URL(url).origin,
        path: rawPath(url),
        method,
        headers: { "user-agent": this.options.userAgent, ...init.headers },
        ...(init.body ? { body: init.body } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      let body = "";
      let size = 0;
      for await (const chunk of response.body) {
        const piece = chunk as Buffer;
        if (size < init.maxBodyBytes) body += piece.subarray(0, init.maxBodyBytes - size).toString("utf8");
        size += piece.length;
        if (size >= init.maxBodyBytes) {
          response.body.destroy();
          break;
        }
      }
      return { status: response.statusCode, body };
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    if (this.#agent) await (await this.#agent).close();
  }
}
