import type { IncomingHttpHeaders } from "node:http";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { isInitializeRequest, type McpServer } from "@modelcontextprotocol/server";
import type { Request, RequestHandler, Response } from "express";
import type { Metrics } from "../metrics/metrics.ts";
import { jsonRpcError } from "./json-rpc.ts";
import { sessionMetrics } from "./session-metrics.ts";
import type { SessionTokens } from "./session-tokens.ts";

const SESSION_HEADER = "mcp-session-id";

export interface LegacyMcp {
  /** A 2025-era POST (its body already parsed). */
  post(req: Request, res: Response, body: unknown): Promise<void>;
  /** DELETE /mcp: ends a session. */
  delete: RequestHandler;
}

function sessionState(headers: IncomingHttpHeaders, tokens: SessionTokens): "missing" | "unknown" | "valid" {
  const session = headers[SESSION_HEADER];
  if (typeof session !== "string" || session === "") return "missing";
  return tokens.check(session);
}

const rpcId = (body: unknown) => {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
};

/** Answers 400 (no session id) or 404 (unknown, expired, terminated) itself; true for a valid session. */
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

/**
 * The 2025 revisions with sessions that no replica has to store: `initialize` mints a signed
 * `Mcp-Session-Id` (session-tokens.ts); every later request is checked against its signature and
 * then answered by a fresh server over a stateless SDK transport, in JSON.
 */
export function legacyMcp(options: {
  factory: () => McpServer;
  tokens: SessionTokens;
  metrics?: Metrics | undefined;
}): LegacyMcp {
  const { factory, tokens } = options;
  const sessions = options.metrics ? sessionMetrics(options.metrics, tokens) : undefined;
  const issue = () => {
    const id = tokens.issue();
    sessions?.opened(id);
    return id;
  };
  return {
    async post(req, res, body) {
      const initialize = isInitializeRequest(body);
      if (!initialize && !requireSession(req, res, tokens, rpcId(body))) return;
      const server = factory();
      // Without a generator the transport is stateless: the session was checked above.
      const transport = new NodeStreamableHTTPServerTransport(
        initialize ? { sessionIdGenerator: issue, enableJsonResponse: true } : { enableJsonResponse: true },
      );
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
    delete(req, res) {
      if (!requireSession(req, res, tokens, null)) return;
      const id = String(req.headers[SESSION_HEADER]);
      tokens.terminate(id);
      sessions?.terminated(id);
      res.status(200).end();
    },
  };
}
