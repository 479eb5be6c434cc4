import { hostHeaderValidation, originValidation } from "@modelcontextprotocol/express";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { classifyInboundRequest, createMcpHandler, type InboundHttpRequest } from "@modelcontextprotocol/server";
import { MCP_RESOURCE_DOCUMENTS } from "@riverbend/shared/mcp-catalog/protocol.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import express, { type RequestHandler, Router } from "express";
import { rateLimit } from "express-rate-limit";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { type LoadedBundle, readDocument } from "../bundle/loaded-bundle.ts";
import { nestsDeeperThan } from "../http/json-depth.ts";
import { EXACT_ROUTING } from "../http/routing.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { mcpCors } from "./cors.ts";
import { jsonRpcError } from "./json-rpc.ts";
import { type LegacyMcp, legacyMcp } from "./legacy-sessions.ts";
import { paramsProblem } from "./request-params.ts";
import { buildMcpServer, type McpContext } from "./server.ts";
import type { SessionTokens } from "./session-tokens.ts";

/** The MCP endpoint's path, and its route label in the request metrics. */
export const MCP_PATH = "/mcp";

export interface McpRouteOptions {
  store: BundleStore;
  tokens: SessionTokens;
  urls: SiteUrls;
  /** Requests per minute per client address. */
  rateLimitPerMinute: number;
  maxBodyBytes?: number;
  /** Open `subscriptions/listen` streams at most (further ones are refused in-band). */
  maxSubscriptions: number;
  /** Where opened and terminated sessions are counted. */
  metrics?: Metrics;
  /** Aborted when the process stops: the listen streams are then closed. */
  stopping?: AbortSignal;
}

/** What the tools and resources of one loaded build see (one object per build, for what is kept per build). */
const contexts = new WeakMap<LoadedBundle, McpContext>();
export function mcpContext(loaded: LoadedBundle, urls: SiteUrls): McpContext {
  let context = contexts.get(loaded);
  if (!context) {
    context = makeContext(loaded, urls);
    contexts.set(loaded, context);
  }
  return context;
}

function makeContext(loaded: LoadedBundle, urls: SiteUrls): McpContext {
  return {
    index: loaded.index,
    business: loaded.index.business,
    aggregate: loaded.index.aggregate,
    insights: loaded.insights,
    urls,
    readDocument: (path) => readDocument(loaded.bundle, path),
  };
}

/** JSON-RPC messages nest far less; deeper bodies are refused before anything walks them. */
export const MAX_JSON_DEPTH = 32;

/** The id of a JSON-RPC request, when it has a valid one (for answering it). */
const requestId = (body: unknown): string | number | null => {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
};

/** The published documents whose bytes differ between two builds, as resource URIs. */
function changedDocuments(before: LoadedBundle, after: LoadedBundle, urls: SiteUrls): string[] {
  return MCP_RESOURCE_DOCUMENTS.filter(
    (doc) => before.bundle.entries.get(doc.path)?.sha256 !== after.bundle.entries.get(doc.path)?.sha256,
  ).map((doc) => `${urls.base}${doc.path}`);
}

/**
 * Whether the SDK's handler would serve this POST as 2025-era traffic: the classification
 * `isLegacyRequest` runs for a parsed body (method, the three MCP headers and the body), read off the
 * Node request instead of a web Request built for it (a third of a tools/call's conversion cost).
 */
function isLegacy(req: express.Request, body: unknown): boolean {
  const request: InboundHttpRequest = { httpMethod: req.method, body };
  const version = req.get("mcp-protocol-version");
  const method = req.get("mcp-method");
  const name = req.get("mcp-name");
  if (version !== undefined) request.protocolVersionHeader = version;
  if (method !== undefined) request.mcpMethodHeader = method;
  if (name !== undefined) request.mcpNameHeader = name;
  return classifyInboundRequest(request).kind === "legacy";
}

/**
 * POST/GET/DELETE /mcp. Requests of the current revision (2026-07-28) go to the SDK's stateless
 * handler; 2025-era requests, as the SDK's own classifier routes them, to the signed-session
 * wiring in legacy-sessions.ts. Either way a fresh server over the current build answers.
 */
export function mcpRoutes(options: McpRouteOptions): Router {
  const { store, urls } = options;
  const router = Router(EXACT_ROUTING);
  const modern = createMcpHandler(() => buildMcpServer(mcpContext(store.current, urls), "modern"), {
    legacy: "reject",
    maxSubscriptions: options.maxSubscriptions,
  });
  const modernNode = toNodeHandler(modern);
  const legacy: LegacyMcp = legacyMcp({
    factory: () => buildMcpServer(mcpContext(store.current, urls), "legacy"),
    tokens: options.tokens,
    metrics: options.metrics,
  });

  let served = store.current;
  store.onSwap((next) => {
    for (const uri of changedDocuments(served, next, urls)) modern.notify.resourceUpdated(uri);
    served = next;
  });
  options.stopping?.addEventListener("abort", () => void modern.close(), { once: true });

  // Every answer of the endpoint is counted under its route, also those of the guards and the limiter.
  const label: RequestHandler = (req, res, next) => {
    if (req.path === "/") res.locals.metricsRoute = MCP_PATH;
    next();
  };
  // DNS-rebinding protection: the public host and loopback names, for Host and for a sent Origin.
  const allowed = [new URL(urls.base).hostname.toLowerCase(), "localhost", "127.0.0.1", "[::1]"];
  const limiter = rateLimit({
    windowMs: 60_000,
    limit: options.rateLimitPerMinute,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    handler: (_req, res, _next, used) => {
      res.status(used.statusCode).json(jsonRpcError(null, -32000, "Too many requests: slow down and retry later"));
    },
  });
  router.use(MCP_PATH, label, hostHeaderValidation(allowed), originValidation(allowed), mcpCors, limiter);

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
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
      const message = `Invalid params: JSON nested more than ${MAX_JSON_DEPTH} levels deep`;
      res.status(400).json(jsonRpcError(Array.isArray(body) ? null : requestId(body), -32602, message));
      return;
    }
    const problem = Array.isArray(body) ? undefined : paramsProblem(body);
    if (problem !== undefined) {
      res.status(200).json(jsonRpcError(requestId(body), -32602, problem));
      return;
    }
    try {
      if (isLegacy(req, body)) await legacy.post(req, res, body);
      else await modernNode(req, res, body);
    } catch (error) {
      next(error);
    }
  };
  // Once the process stops the modern handler is closed (its streams too): a request arriving later is
  // told why, while one already under way (its body still coming) is finished.
  const refuseWhenStopping: RequestHandler = (_req, res, next) => {
    if (!options.stopping?.aborted) return next();
    res.status(503).json(jsonRpcError(null, -32000, "Service unavailable: the server is shutting down"));
  };
  router.post(MCP_PATH, refuseWhenStopping, readBody, post);
  router.delete(MCP_PATH, legacy.delete);
  router.get(MCP_PATH, (_req, res) => {
    // 2025 clients get no server-initiated GET stream; 2026-07-28 clients use subscriptions/listen.
    res.setHeader("Allow", "POST, DELETE");
    res.status(405).json(jsonRpcError(null, -32000, "Method not allowed: this server offers no GET stream; use POST"));
  });
  router.all(MCP_PATH, (req, res) => {
    res.setHeader("Allow", "POST, GET, DELETE");
    res.status(405).json(jsonRpcError(null, -32000, `Method not allowed: ${req.method}`));
  });
  return router;
}
