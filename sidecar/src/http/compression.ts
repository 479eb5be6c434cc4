import type { IncomingHttpHeaders } from "node:http";

/** The Express app's compression threshold, given to the middleware explicitly so the fast paths agree. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Whether the compression middleware would compress a body of `size` bytes for this request: the
 * fast paths leave such answers to Express rather than compress themselves.
 */
export function wouldCompress(headers: IncomingHttpHeaders, size: number): boolean {
  const encoding = headers["accept-encoding"];
  return encoding !== undefined && encoding !== "" && encoding !== "identity" && size >= COMPRESSION_THRESHOLD;
}
