import { randomBytes } from "node:crypto";
import { withHubParams } from "@riverbend/shared/websub/callback-url.ts";
import type { HubRequest } from "@riverbend/shared/websub/hub-request.ts";
import { failureReason, type GuardedClient } from "./outbound/guarded-client.ts";

/** A new challenge for every verification: 43 random URL-safe characters. */
export function newChallenge(): string {
  return randomBytes(32).toString("base64url");
}

/** Whether the subscriber confirmed, and if not why (for the log: no URL, no secret). */
export type VerificationOutcome = { confirmed: true } | { confirmed: false; reason: string };

/**
 * Verification of intent (WebSub §5.3): GET the callback with mode, topic, challenge (and the granted
 * lease on subscribe). Only a 2xx whose body is exactly the challenge confirms; any other status
 * (redirects are never followed), a wrong body, a timeout or a refused address does not.
 */
export async function verifyIntent(
  client: GuardedClient,
  request: Extract<HubRequest, { mode: "subscribe" | "unsubscribe" }>,
): Promise<VerificationOutcome> {
  const challenge = newChallenge();
  const params: Record<string, string> = {
    "hub.mode": request.mode,
    "hub.topic": request.topic,
    "hub.challenge": challenge,
  };
  if (request.mode === "subscribe") params["hub.lease_seconds"] = String(request.leaseSeconds);
  try {
    const response = await client.send("GET", withHubParams(request.callback, params), {
      budget: "verification",
      maxBodyBytes: challenge.length + 64,
    });
    if (response.status < 200 || response.status >= 300) {
      return { confirmed: false, reason: `callback answered ${response.status}` };
    }
    if (response.body !== challenge) return { confirmed: false, reason: "the answer was not the challenge" };
    return { confirmed: true };
  } catch (error) {
    return { confirmed: false, reason: failureReason(error) };
  }
}
