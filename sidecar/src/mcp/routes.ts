import type { IncomingHttpHeaders } from "node:http";
import type { Socket } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express, { type Request, type RequestHandler, type Response, Router } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import type { SiteUrls } from "../../../src/site/urls.ts";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { syncRateLimit } from "../http/rate-limit/sync-rate-limit.ts";
import type { Metrics } from "../metrics/metrics.ts";
import {
  directCallHeaders,
  directToolCall,
  mcpContext,
  type ToolCallResponse,
  toolCallResponse,
  writeToolCallResponse,
} from "./direct-call.ts";
import { type DirectEndpointSlot, MCP_PATH } from "./direct-endpoint.ts";
import { hostAndOriginCheck, hostAndOriginGuard, mcpCors, setMcpCorsHeaders } from "./guard.ts";
import { checkMessage, jsonRpcError, writeJsonRpc } from "./json-rpc.ts";
import { buildMcpServer } from "./server.ts";
import { sessionMetrics } from "./session-metrics.ts";
import type { SessionTokens } from "./session-tokens.ts";

export interface McpRouteOptions {
  store: BundleStore;
  tokens: SessionTokens;
  urls: SiteUrls;
  /** Requests per minute per client address. */
  rateLimitPerMinute: number;
  maxBodyBytes?: number;
  /** Where opened and terminated sessions are counted. */
  metrics?: Metrics;
  /** Receives what the raw tools/call fast path borrows from these routes. */
  direct?: DirectEndpointSlot;
}

const SESSION_HEADER = "mcp-session-id";

type SessionState = "missing" | "unknown" | "valid";

function sessionState(headers: IncomingHttpHeaders, tokens: SessionTokens): SessionState {
  const session = headers[SESSION_HEADER];
  if (typeof session !== "string" || session === "") return "missing";
  return tokens.check(session);
}

/** Reads the session header and answers 400 (missing) or 404 (unknown, expired, terminated) itself. */
function requireSession(req: Request, res: Response, tokens: SessionTokens, id: string | number | null): boolean {
  const state = sessionState(req.headers, tokens);
  if (state === "missing") {
    res
      .status(400)
      .json(jsonRpcError(id, -32000, "Bad Request: Mcp-Session-Id header is required; send initialize first"));
    return false;
  }
  if (state !== "valid") {
    res.status(404).json(jsonRpcError(id, -32001, "Session not found: it expired or was terminated; initialize again"));
    return false;
  }
  return true;
}

// A connection's address never changes: its key (IPv6 addresses grouped by /56) is worked out once.
const clientKeys = new WeakMap<Socket, string>();
function clientKey(socket: Socket): string {
  let key = clientKeys.get(socket);
  if (key === undefined) {
    key = ipKeyGenerator(socket.remoteAddress ?? "");
    clientKeys.set(socket, key);
  }
  return key;
}

const rpcId = (message: { id?: unknown }) =>
  typeof message.id === "string" || typeof message.id === "number" ? message.id : null;

/**
 * POST/GET/DELETE /mcp over streamable HTTP. Every request gets a fresh server and transport over
 * the current build, so no session state lives in the process: initialize mints a signed session
 * id, later requests are checked against the signature and then served statelessly.
 */
export function mcpRoutes(options: McpRouteOptions): Router {
  const { store, tokens, urls } = options;
  const router = Router();
  const sessions = options.metrics ? sessionMetrics(options.metrics, tokens) : undefined;
  const issue = () => {
    const id = tokens.issue();
    sessions?.opened(id);
    return id;
  };
  // Synchronous, so the fast path counts a tool call and answers it without waiting on a promise.
  const limiter = syncRateLimit({
    windowMs: 60_000,
    limit: options.rateLimitPerMinute,
    // The connection's address, which is what req.ip is without Express's "trust proxy" (never set
    // here): a raw request in the tools/call fast path gets the same key.
    key: (req) => clientKey(req.socket),
    // Plain node:http, so the fast path, which shares this limiter, answers 429 with the same bytes.
    tooMany: (res, statusCode) =>
      writeJsonRpc(res, statusCode, jsonRpcError(null, -32000, "Too many requests: slow down and retry later")),
  });
  // Every answer of the endpoint is counted under its route, also those of the guard and the limiter.
  const label: RequestHandler = (req, res, next) => {
    if (req.path === "/") res.locals.metricsRoute = MCP_PATH;
    next();
  };
  router.use(MCP_PATH, label, hostAndOriginGuard(urls), mcpCors, limiter.middleware);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const refusal = hostAndOriginCheck(urls);
  if (options.direct) {
    options.direct.current = {
      maxBodyBytes,
      mayAnswer: (req) =>
        refusal(req.headers) === undefined &&
        sessionState(req.headers, tokens) === "valid" &&
        directCallHeaders(req.headers),
      answer(req, bytes) {
        let body: unknown;
        try {
          body = JSON.parse(bytes.toString("utf8"));
        } catch {
          return undefined;
        }
        const message = checkMessage(body);
        if (typeof message === "string") return undefined;
        const call = directToolCall(req.headers, message, rpcId(message));
        // The session is checked again: it may have been terminated while the body arrived.
        if (!call || sessionState(req.headers, tokens) !== "valid") return undefined;
        try {
          return toolCallResponse(store.current, urls, call);
        } catch {
          // An unknown tool (a JSON-RPC error) or a failure: Express answers those.
          return undefined;
        }
      },
      write: writeToolCallResponse,
      cors: (req, res) => setMcpCorsHeaders(req.headers, res),
      limit: limiter.consume,
    };
  }

  // A request the fast path read and then left to Express arrives finished with its body in
  // req.body: the parser leaves it as it is.
  const raw = express.raw({ type: () => true, limit: maxBodyBytes });
  // Body errors (too large, aborted) are answered as JSON-RPC errors like every other MCP failure.
  const readBody: RequestHandler = (req, res, next) =>
    raw(req, res, (error?: unknown) => {
      if (!error) return next();
      const status = (error as { status?: number }).status ?? 400;
      const message =
        status === 413 ? "Request too large: the limit is 1 MiB" : "Invalid Request: the body could not be read";
      res.status(status).json(jsonRpcError(null, -32600, message));
    });
  const post: RequestHandler = async (req, res, next) => {
    let body: unknown;
    try {
      body = JSON.parse(Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "");
    } catch (error) {
      res.status(400).json(jsonRpcError(null, -32700, `Parse error: ${(error as Error).message}`));
      return;
    }
    const message = checkMessage(body);
    if (typeof message === "string") {
      res.status(400).json(jsonRpcError(null, -32600, `Invalid Request: ${message}`));
      return;
    }
    const id = rpcId(message);
    const initialize = message.method === "initialize";
    if (!initialize && !requireSession(req, res, tokens, id)) return;

    const loaded = store.current;
    // tools/call in an established session is the hot path: answered with the same callTool the SDK
    // server uses, without building a server and transport per call (about 0.6 ms of CPU each).
    const call = directToolCall(req.headers, message, id);
    if (call) {
      let response: ToolCallResponse;
      try {
        response = toolCallResponse(loaded, urls, call);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code !== "number") throw error;
        res.status(200).json(jsonRpcError(id, code, (error as Error).message));
        return;
      }
      res.status(200).type("application/json");
      res.setHeader("Content-Length", response.length);
      writeToolCallResponse(res, response);
      return;
    }
    const context = mcpContext(loaded, urls);
    const server = buildMcpServer(context);
    // Without a generator the transport runs stateless: the session was already checked above.
    const transport = new StreamableHTTPServerTransport(
      initialize ? { sessionIdGenerator: issue, enableJsonResponse: true } : { enableJsonResponse: true },
    );
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      next(error);
    }
  };
  router.post(MCP_PATH, readBody, post);

  router.delete("/mcp", (req, res) => {
    if (!requireSession(req, res, tokens, null)) return;
    tokens.terminate(String(req.headers[SESSION_HEADER]));
    sessions?.terminated(String(req.headers[SESSION_HEADER]));
    res.status(200).end();
  });
  router.get("/mcp", (_req, res) => {
    // No server-initiated stream is offered: every response comes on its POST.
    res.setHeader("Allow", "POST, DELETE");
    res.status(405).json(jsonRpcError(null, -32000, "Method not allowed: this server offers no GET stream; use POST"));
  });
  router.all("/mcp", (req, res) => {
    res.setHeader("Allow", "POST, GET, DELETE");
    res.status(405).json(jsonRpcError(null, -32000, `Method not allowed: ${req.method}`));
  });
  return router;
}
