import pRetry, { AbortError } from "p-retry";
import { withHubParams } from "../../../src/hub/callback-url.ts";
import { hubSignature } from "../../../src/hub/signature.ts";
import type { TopicContent } from "./content.ts";
import type { GuardedClient } from "./outbound/guarded-client.ts";
import type { HubStore, PendingDelivery } from "./store/hub-store.ts";

export interface RetryPolicy {
  /** Consecutive failed attempts after which a subscription is removed (the spec says 3). */
  maxFailures: number;
  minDelayMs: number;
  maxDelayMs: number;
  factor: number;
}

export interface DistributorDeps {
  store: HubStore;
  client: GuardedClient;
  retry: RetryPolicy;
  hubUrl: string;
  /** Current content of a topic URL, or undefined if the build no longer has it. */
  content(topic: string): TopicContent | undefined;
  now(): number;
  onOutcome?(outcome: "delivered" | "failed" | "removed" | "gone"): void;
}

/** The delivery cannot be made and must not be retried: the subscription or the topic is gone. */
class Gone extends Error {
  readonly removeSubscription: boolean;

  constructor(message: string, removeSubscription = false) {
    super(message);
    this.removeSubscription = removeSubscription;
  }
}

/**
 * Delivers one pending delivery: up to the remaining attempts, with exponential backoff and
 * jitter (p-retry). Success resets the failure count; the count is persisted on every failure, so
 * a restart resumes where it stopped. At `maxFailures` the subscriber is told (hub.mode=denied,
 * best effort) and the subscription removed; a 410 removes it at once.
 */
export async function deliver(deps: DistributorDeps, pending: PendingDelivery): Promise<void> {
  const { store, client, retry } = deps;
  const { topic, callback } = pending;
  const subscription = store.getSubscription(topic, callback);
  if (!subscription || subscription.expiresAt <= deps.now()) {
    store.completeDelivery(topic, callback, pending.sha256);
    return;
  }
  let sentSha: string | undefined;
  const attempt = async () => {
    const current = store.getSubscription(topic, callback);
    if (!current || current.expiresAt <= deps.now()) throw new AbortError(new Gone("subscription ended"));
    const content = deps.content(topic);
    if (!content) throw new AbortError(new Gone("topic no longer published"));
    const headers: Record<string, string> = {
      "content-type": content.contentType,
      link: `<${deps.hubUrl}>; rel="hub", <${topic}>; rel="self"`,
    };
    if (current.secret) headers["x-hub-signature"] = hubSignature(current.secret, content.body);
    const response = await client.send("POST", callback, { headers, body: content.body, maxBodyBytes: 0 });
    if (response.status === 410) throw new AbortError(new Gone("subscriber answered 410 Gone", true));
    if (response.status < 200 || response.status >= 300) throw new Error(`callback answered ${response.status}`);
    sentSha = content.sha256;
  };
  const attemptsLeft = Math.max(1, retry.maxFailures - subscription.failures);
  try {
    await pRetry(attempt, {
      retries: attemptsLeft - 1,
      minTimeout: retry.minDelayMs,
      maxTimeout: retry.maxDelayMs,
      factor: retry.factor,
      randomize: true,
      onFailedAttempt: ({ error }) => {
        if (!(error instanceof Gone)) store.recordFailure(topic, callback);
      },
    });
    store.recordSuccess(topic, callback);
    // Only the content actually sent completes the delivery: a newer change stays owed.
    store.completeDelivery(topic, callback, sentSha ?? pending.sha256);
    deps.onOutcome?.("delivered");
  } catch (error) {
    if (error instanceof Gone && error.removeSubscription) {
      store.removeSubscription(topic, callback);
      deps.onOutcome?.("removed");
      return;
    }
    if (error instanceof Gone) {
      store.completeDelivery(topic, callback, pending.sha256);
      deps.onOutcome?.("gone");
      return;
    }
    const failures = store.getSubscription(topic, callback)?.failures ?? retry.maxFailures;
    if (failures >= retry.maxFailures) {
      await deny(client, callback, topic, `${failures} consecutive delivery failures`);
      store.removeSubscription(topic, callback);
      deps.onOutcome?.("removed");
    } else {
      store.postponeDelivery(topic, callback, deps.now() + retry.maxDelayMs);
      deps.onOutcome?.("failed");
    }
  }
}

/** Tells a subscriber its subscription ends (WebSub §5.2); failures are ignored. */
export async function deny(client: GuardedClient, callback: string, topic: string, reason: string): Promise<void> {
  try {
    await client.send(
      "GET",
      withHubParams(callback, { "hub.mode": "denied", "hub.topic": topic, "hub.reason": reason }),
      {
        maxBodyBytes: 0,
      },
    );
  } catch {
    // Best effort: the subscription is removed either way.
  }
}
