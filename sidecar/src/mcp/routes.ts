import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import express, { type Request, type RequestHandler, type Response, Router } from "express";
import { rateLimit } from "express-rate-limit";
import type { SiteUrls } from "../../../src/site/urls.ts";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { type BuildCache, readDocument } from "../bundle/loaded-bundle.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { hostAndOriginGuard, mcpCors } from "./guard.ts";
import { checkMessage, jsonRpcError } from "./json-rpc.ts";
import { buildMcpServer, callTool, type McpContext } from "./server.ts";
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

const SESSION_HEADER = "mcp-session-id";

/** Reads the session header and answers 400 (missing) or 404 (unknown, expired, terminated) itself. */
function requireSession(req: Request, res: Response, tokens: SessionTokens, id: string | number | null): boolean {
  const session = req.headers[SESSION_HEADER];
  if (typeof session !== "string" || session === "") {
    res
      .status(400)
      .json(jsonRpcError(id, -32000, "Bad Request: Mcp-Session-Id header is required; send initialize first"));
    return false;
  }
  if (tokens.check(session) !== "valid") {
    res.status(404).json(jsonRpcError(id, -32001, "Session not found: it expired or was terminated; initialize again"));
    return false;
  }
  return true;
}

const wants = (req: Request, type: string) => (req.headers.accept ?? "").includes(type);

/**
 * tools/call in an established session is the hot path: answered here with the same callTool the
 * SDK server uses, without building a server and transport per call (about 0.6 ms of CPU each).
 * Anything unusual (headers the transport would refuse, a protocol version it does not know,
 * malformed params) is left to the SDK, so its answers stay the reference.
 */
function answerToolCallDirectly(
  req: Request,
  res: Response,
  message: { method?: unknown; params?: unknown },
  id: string | number | null,
  context: McpContext,
  results: BuildCache<Buffer>,
): boolean {
  if (message.method !== "tools/call" || id === null) return false;
  if (!wants(req, "application/json") || !wants(req, "text/event-stream") || !req.is("application/json")) return false;
  const version = req.headers["mcp-protocol-version"];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) return false;
  const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
  if (!params || typeof params.name !== "string") return false;
  try {
    // A build's tools are pure functions of their arguments: the serialized result is kept per build.
    // Tool errors (invalid arguments) are results too, and as deterministic; an unknown tool throws.
    const { name, arguments: args = {} } = params;
    const result = results.memo(`${name}\u0000${JSON.stringify(args)}`, {
      context: () => Buffer.from(JSON.stringify(callTool(context, name, args))),
    });
    // Written in three pieces so the cached bytes are sent as they are, never re-encoded.
    const head = Buffer.from('{"result":');
    const tail = Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
    res.status(200).type("application/json");
    res.setHeader("Content-Length", head.length + result.length + tail.length);
    res.write(head);
    res.write(result);
    res.end(tail);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "number") throw error;
    res.status(200).json(jsonRpcError(id, code, (error as Error).message));
  }
  return true;
}

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
    handler: (_req, res, _next, opts) => {
      res.status(opts.statusCode).json(jsonRpcError(null, -32000, "Too many requests: slow down and retry later"));
    },
  });
  router.use("/mcp", hostAndOriginGuard(urls), mcpCors, limiter);

  const raw = express.raw({ type: () => true, limit: options.maxBodyBytes ?? 1024 * 1024 });
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
    const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
    const initialize = message.method === "initialize";
    if (!initialize && !requireSession(req, res, tokens, id)) return;

    const loaded = store.current;
    const context: McpContext = {
      index: loaded.index,
      search: loaded.search,
      business: loaded.business,
      aggregate: loaded.aggregate,
      insights: loaded.insights,
      urls,
      readDocument: (path) => readDocument(loaded.bundle, path),
    };
    if (answerToolCallDirectly(req, res, message, id, context, loaded.toolResults)) return;
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
  router.post("/mcp", readBody, post);

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
