import type { ServerResponse } from "node:http";

/** A JSON-RPC 2.0 error response body. */
export function jsonRpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: "2.0" as const, id, error: { code, message } };
}

type Message = { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown };

/** A single JSON-RPC request or notification, or the reason it is not one. */
export function checkMessage(body: unknown): Message | string {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return "a request must be one JSON-RPC 2.0 object";
  }
  const message = body as Message;
  if (message.jsonrpc !== "2.0") return 'jsonrpc must be "2.0"';
  if (message.method !== undefined && typeof message.method !== "string") return "method must be a string";
  if (message.method === undefined && !("result" in message) && !("error" in message)) return "method is missing";
  return message;
}

/**
 * Writes a JSON-RPC body as Express's `res.status(status).json(body)` would (same bytes and headers),
 * with plain node:http (the rate limiter answers 429 through it).
 */
export function writeJsonRpc(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", String(Buffer.byteLength(text)));
  res.end(text);
}
