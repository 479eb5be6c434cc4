import { withHubParams } from "@riverbend/shared/websub/callback-url.ts";
import { hubSignature } from "@riverbend/shared/websub/signature.ts";
import type { Logger } from "pino";
import type { TopicContent } from "./content.ts";
import { failureReason, type GuardedClient } from "./outbound/guarded-client.ts";
import type { ClaimedDelivery, HubStore } from "./store/hub-store.ts";

export interface RetryPolicy {
  /** Consecutive failed attempts after which a subscription is removed (the spec says 3). */
  maxFailures: number;
  minDelayMs: number;
  maxDelayMs: number;
  factor: number;
}

export type DeliveryOutcome = "delivered" | "failed" | "removed" | "gone";

export interface DistributorDeps {
  store: HubStore;
  client: GuardedClient;
  retry: RetryPolicy;
  hubUrl: string;
  logger: Logger;
  /** Current content of a topic URL, or undefined if the build no longer has it. */
  content(topic: string): TopicContent | undefined;
  now(): number;
}

/** Delay before the next attempt after `failures` consecutive failures: exponential, with jitter. */
export function retryDelay(retry: RetryPolicy, failures: number): number {
  const base = retry.minDelayMs * retry.factor ** Math.max(0, failures - 1);
  return Math.round(Math.min(retry.maxDelayMs, base * (1 + Math.random())));
}

/**
 * One attempt at a claimed delivery. A 2xx completes it and resets the failure count; any other
 * answer or no answer counts a failure and gives the delivery back, due again after a backoff
 * (another replica may take the retry). At `maxFailures` the subscriber is told (hub.mode=denied,
 * best effort) and the subscription removed; a 410 removes it at once. Failures and removals are
 * logged with the callback's host and the reason, never the callback's query or a secret.
 */
export async function deliver(
  deps: DistributorDeps,
  delivery: ClaimedDelivery,
  /** Called once the request is over, before its outcome is recorded. */
  sent: () => void = () => undefined,
): Promise<DeliveryOutcome> {
  const { store, client, retry, logger } = deps;
  const { topic, callback } = delivery;
  const content = deps.content(topic);
  if (delivery.expiresAt <= deps.now() || !content) {
    await store.dropDelivery(delivery);
    return "gone";
  }
  const headers: Record<string, string> = {
    "content-type": content.contentType,
    link: `<${deps.hubUrl}>; rel="hub", <${topic}>; rel="self"`,
  };
  if (delivery.secret) headers["x-hub-signature"] = hubSignature(delivery.secret, content.body);
  const host = new URL(callback).host;
  let reason: string;
  try {
    const response = await client.send("POST", callback, {
      budget: "delivery",
      headers,
      body: content.body,
      maxBodyBytes: 0,
    });
    sent();
    if (response.status >= 200 && response.status < 300) {
      await store.deliverySucceeded(delivery, content.sha256);
      return "delivered";
    }
    if (response.status === 410) {
      await store.removeSubscription(topic, callback);
      logger.warn({ topic, host, reason: "callback answered 410 Gone" }, "websub subscription removed");
      return "removed";
    }
    reason = `callback answered ${response.status}`;
  } catch (error) {
    sent();
    reason = failureReason(error);
  }
  const failures = await store.deliveryFailed(delivery, deps.now() + retryDelay(retry, delivery.failures + 1));
  if (failures >= retry.maxFailures) {
    const why = `${failures} consecutive delivery failures (last: ${reason})`;
    await deny(client, callback, topic, `${failures} consecutive delivery failures`);
    await store.removeSubscription(topic, callback);
    logger.warn({ topic, host, reason: why }, "websub subscription removed");
    return "removed";
  }
  logger.warn({ topic, host, reason, failures }, "websub delivery failed");
  return "failed";
}

/** Tells a subscriber its subscription ends (WebSub §5.2); failures are ignored. */
export async function deny(client: GuardedClient, callback: string, topic: string, reason: string): Promise<void> {
  try {
    await client.send(
      "GET",
      withHubParams(callback, { "hub.mode": "denied", "hub.topic": topic, "hub.reason": reason }),
      { budget: "delivery", maxBodyBytes: 0 },
    );
  } catch {
    // Best effort: the subscription is removed either way.
  }
}
