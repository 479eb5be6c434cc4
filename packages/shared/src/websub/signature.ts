import { createHmac } from "node:crypto";

/** `X-Hub-Signature` value for a delivery body (WebSub §7.1): sha256, lowercase hex. */
export function hubSignature(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}
