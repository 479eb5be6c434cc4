import type { IncomingMessage } from "node:http";

/** The client's X-Request-Id (bounded), or a fresh one: the id of the access-log line and the response. */
export function requestId(req: IncomingMessage): string {
  return req.headers["x-request-id"]?.toString().slice(0, 100) || crypto.randomUUID();
}
