import type { IncomingHttpHeaders } from "node:http";
import type { Socket } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express, { type Request, type RequestHandler, type Response, Router } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import type { SiteUrls } from "../../../src/site/urls.ts";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { type LoadedBundle, readDocument } from "../bundle/loaded-bundle.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { hostAndOriginGuard, mcpCors } from "./guard.ts";
import { checkMessage, jsonRpcError, writeJsonRpc } from "./json-rpc.ts";
import { buildMcpServer, type McpContext } from "./server.ts";
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
}

const MCP_PATH = "/mcp";

/** What the tools and resources of one loaded build see. */
function mcpContext(loaded: LoadedBundle, urls: SiteUrls): McpContext {
  const { index, insights } = loaded;
  const readBuilt = (path: string) => readDocument(loaded.bundle, path);
  return { index, business: index.business, aggregate: index.aggregate, insights, urls, readDocument: readBuilt };
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
  const limiter = rateLimit({
    windowMs: 60_000,
    limit: options.rateLimitPerMinute,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    // The connection's address, which is what req.ip is without Express's "trust proxy" (never set here).
    keyGenerator: (req) => clientKey(req.socket),
    handler: (_req, res, _next, used) =>
      writeJsonRpc(res, used.statusCode, jsonRpcError(null, -32000, "Too many requests: slow down and retry later")),
  });
  // Every answer of the endpoint is counted under its route, also those of the guard and the limiter.
  const label: RequestHandler = (req, res, next) => {
    if (req.path === "/") res.locals.metricsRoute = MCP_PATH;
    next();
  };
  router.use(MCP_PATH, label, hostAndOriginGuard(urls), mcpCors, limiter);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
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
