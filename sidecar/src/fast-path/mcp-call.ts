import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { createAccessLog } from "../http/access-log.ts";
import { appendVary, COMMON_HEADERS } from "../http/common-headers.ts";
import { wouldCompress } from "../http/compression.ts";
import { requestId } from "../http/request-id.ts";
import type { ToolCallResponse } from "../mcp/direct-call.ts";
import { type DirectEndpointSlot, MCP_PATH, type McpDirectEndpoint } from "../mcp/direct-endpoint.ts";
import type { Metrics } from "../metrics/metrics.ts";

/**
 * Returns true when it took the request: it then answers it, or hands it to `fallThrough` (Express)
 * once its body is read, with the body in `req.body`. False leaves the request untouched.
 */
export type McpCallFastPath = (
  req: IncomingMessage,
  res: ServerResponse,
  fallThrough: (req: IncomingMessage, res: ServerResponse) => void,
) => boolean;

// tools/call bodies are small: larger ones (up to the endpoint's limit) go to Express unread.
const BODY_LIMIT = 64 * 1024;

/** Reads a body of a known, small length; undefined if the request fails before its end. */
function readBody(req: IncomingMessage, done: (body: Buffer | undefined) => void): void {
  const chunks: Buffer[] = [];
  let settled = false;
  const settle = (body: Buffer | undefined) => {
    if (settled) return;
    settled = true;
    done(body);
  };
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.once("end", () => settle(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
  req.once("error", () => settle(undefined));
  req.once("close", () => settle(undefined));
}

/**
 * POST /mcp `tools/call` in an established session, answered with plain node:http before Express,
 * with the functions the Express route uses (guard, session check, JSON-RPC checks, the per-build
 * cached tool result, CORS, the same rate limiter instance) and what the app's middleware adds
 * (request id, Link, Vary, metrics under the same route, an access-log line). It decides from the
 * headers whether to read the body at all (a Content-Length within 64 KiB, no Transfer-Encoding or
 * Content-Encoding, Host/Origin accepted, a valid session, the Accept, Content-Type and protocol
 * version of a direct call); with the body it answers only a single JSON-RPC tools/call request
 * whose tool exists, and only when the compression middleware would not compress the answer.
 * Everything else goes to Express, which finds the body already read in req.body. Until the MCP
 * routes are loaded (the first /mcp request through Express loads them), nothing is taken.
 */
export function createMcpCallFastPath(deps: {
  endpoint: DirectEndpointSlot;
  logger: Logger;
  metrics: Metrics;
}): McpCallFastPath {
  const { logger, metrics } = deps;
  const accessLog = createAccessLog(logger);

  const respond = (
    endpoint: McpDirectEndpoint,
    req: IncomingMessage,
    res: ServerResponse,
    response: ToolCallResponse,
    started: number,
  ) => {
    const id = requestId(req);
    // What the app's middleware adds before the route: the request id (pino-http), Link, then the
    // route's CORS and, at the first byte, compression's Vary.
    res.setHeader("X-Request-Id", id);
    for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value);
    endpoint.cors(req, res);
    appendVary(res, "Accept-Encoding");
    // The limiter sets its headers, or answers 429 itself.
    if (endpoint.limit(req, res)) {
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": response.length });
      endpoint.write(res, response);
    }
    const ms = performance.now() - started;
    metrics.observeRequest("POST", MCP_PATH, res.statusCode, ms / 1000);
    accessLog?.({ id, method: "POST", url: MCP_PATH, statusCode: res.statusCode, ms });
  };

  return (req, res, fallThrough) => {
    if (req.method !== "POST" || req.url !== MCP_PATH) return false;
    const endpoint = deps.endpoint.current;
    if (!endpoint) return false;
    const headers = req.headers;
    if (headers["transfer-encoding"] !== undefined || headers["content-encoding"] !== undefined) return false;
    const length = Number(headers["content-length"]);
    if (!(length <= Math.min(BODY_LIMIT, endpoint.maxBodyBytes))) return false;
    if (!endpoint.mayAnswer(req)) return false;
    const started = performance.now();
    readBody(req, (body) => {
      if (body === undefined) {
        fallThrough(req, res);
        return;
      }
      const response = endpoint.answer(req, body);
      if (!response || wouldCompress(headers, response.length)) {
        (req as IncomingMessage & { body?: Buffer }).body = body;
        fallThrough(req, res);
        return;
      }
      respond(endpoint, req, res, response, started);
    });
    return true;
  };
}
