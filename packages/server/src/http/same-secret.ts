import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether a credential a client sent equals the configured one, in time independent of where they
 * differ and of the given one's length (both are hashed to 32 bytes first): every bearer token is
 * checked here.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
