import type { TopicPath } from "../registry/documents.ts";

/** A rejected hub request: answered 4xx with the reason as plain text, before any outbound call. */
export class HubRequestError extends Error {
  readonly status: number;
  /** Sent as Retry-After (429, 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, message: string, retryAfterSeconds?: number) {
    super(message);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
    this.name = "HubRequestError";
  }
}

export interface LeasePolicy {
  defaultSeconds: number;
  minSeconds: number;
  maxSeconds: number;
}

export type HubRequest =
  | {
      mode: "subscribe";
      topic: string;
      path: TopicPath;
      callback: string;
      leaseSeconds: number;
      secret: string | undefined;
    }
  | { mode: "unsubscribe"; topic: string; path: TopicPath; callback: string }
  | { mode: "publish"; topic: string; path: TopicPath };

const MAX_CALLBACK_LENGTH = 2048;
const MAX_SECRET_BYTES = 199;

/** Reads one parameter: absent is undefined, given twice is an error. */
function single(form: URLSearchParams, name: string): string | undefined {
  const values = form.getAll(name);
  if (values.length > 1) throw new HubRequestError(400, `${name} is given ${values.length} times; give it once`);
  return values[0];
}

function required(form: URLSearchParams, name: string): string {
  const value = single(form, name);
  if (value === undefined || value === "") throw new HubRequestError(400, `${name} is required`);
  return value;
}

/** Characters a URL may contain as written (RFC 3986 §2: unreserved, reserved, and "%" escapes). */
const URL_CHARACTER = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;
const NAMED: Readonly<Record<string, string>> = {
  " ": "a space",
  "\r": "a carriage return (CR)",
  "\n": "a line feed (LF)",
};

/**
 * Refuses characters a URL cannot contain as written: the URL parser would silently drop CR, LF
 * and tabs or encode spaces, so the hub would verify and deliver to another URL than the one given.
 */
function checkCallbackCharacters(callback: string): void {
  for (let i = 0; i < callback.length; i++) {
    const char = callback.charAt(i);
    if (char === "%" && !/^%[0-9A-Fa-f]{2}/.test(callback.slice(i))) {
      throw new HubRequestError(
        400,
        `hub.callback has a "%" at position ${i + 1} that is not followed by two hex digits`,
      );
    }
    if (URL_CHARACTER.test(char)) continue;
    const point = callback.codePointAt(i) ?? 0;
    const code = `U+${point.toString(16).toUpperCase().padStart(4, "0")}`;
    const shown = String.fromCodePoint(point);
    const what = NAMED[char] ?? (/[\p{Cc}\p{Z}]/u.test(shown) ? `the character ${code}` : `"${shown}" (${code})`);
    throw new HubRequestError(
      400,
      `hub.callback contains ${what} at position ${i + 1}; a URL must percent-encode it (RFC 3986)`,
    );
  }
}

/**
 * The callback rules: an absolute HTTPS URL of URL characters only, no userinfo or fragment, at
 * most 2,048 characters.
 */
export function checkCallback(callback: string): void {
  if (callback.length > MAX_CALLBACK_LENGTH) {
    throw new HubRequestError(400, `hub.callback is longer than ${MAX_CALLBACK_LENGTH} characters`);
  }
  checkCallbackCharacters(callback);
  let url: URL;
  try {
    url = new URL(callback);
  } catch {
    throw new HubRequestError(400, "hub.callback is not an absolute URL");
  }
  if (url.protocol !== "https:") throw new HubRequestError(400, "hub.callback must be an https:// URL");
  if (url.username || url.password)
    throw new HubRequestError(400, "hub.callback must not contain a user name or password");
  if (callback.includes("#")) throw new HubRequestError(400, "hub.callback must not contain a fragment");
}

function leaseSeconds(value: string | undefined, policy: LeasePolicy): number {
  if (value === undefined) return policy.defaultSeconds;
  if (!/^[1-9]\d*$/.test(value)) throw new HubRequestError(400, "hub.lease_seconds must be a positive whole number");
  return Math.min(policy.maxSeconds, Math.max(policy.minSeconds, Number(value)));
}

/**
 * Parses a form-encoded hub request. Unknown parameters are ignored (WebSub §5.1); everything the
 * hub relies on is checked here, so a bad request never causes an outbound request.
 */
export function parseHubRequest(
  form: URLSearchParams,
  topics: ReadonlyMap<string, TopicPath>,
  lease: LeasePolicy,
): HubRequest {
  const mode = required(form, "hub.mode");
  if (mode === "publish") {
    const url = single(form, "hub.url");
    const topic = url ?? required(form, "hub.topic");
    const path = topics.get(topic);
    if (!path) throw new HubRequestError(400, `${url ? "hub.url" : "hub.topic"} is not a topic of this hub`);
    return { mode, topic, path };
  }
  if (mode !== "subscribe" && mode !== "unsubscribe") {
    throw new HubRequestError(400, "hub.mode must be subscribe, unsubscribe or publish");
  }
  const topic = required(form, "hub.topic");
  const path = topics.get(topic);
  if (!path) {
    throw new HubRequestError(400, `hub.topic must be exactly one of ${[...topics.keys()].join(", ")}`);
  }
  const callback = required(form, "hub.callback");
  checkCallback(callback);
  if (mode === "unsubscribe") return { mode, topic, path, callback };
  const secret = single(form, "hub.secret");
  if (secret !== undefined && Buffer.byteLength(secret, "utf8") > MAX_SECRET_BYTES) {
    throw new HubRequestError(400, "hub.secret must be less than 200 bytes");
  }
  return {
    mode,
    topic,
    path,
    callback,
    leaseSeconds: leaseSeconds(single(form, "hub.lease_seconds"), lease),
    secret: secret === "" ? undefined : secret,
  };
}
