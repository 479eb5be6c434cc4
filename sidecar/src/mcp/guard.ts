import type { IncomingHttpHeaders } from "node:http";
import cors from "cors";
import type { RequestHandler } from "express";
import type { SiteUrls } from "../../../src/site/urls.ts";
import { jsonRpcError } from "./json-rpc.ts";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]", "::1"];

/** The host name of a Host header ("example.com:8080", "[::1]:80"), without parsing a whole URL. */
function hostOfHeader(value: string): string | undefined {
  if (value === "") return undefined;
  const end = value.startsWith("[") ? value.indexOf("]") + 1 : value.lastIndexOf(":");
  return (end > 0 ? value.slice(0, end) : value).toLowerCase();
}

function hostnameOf(value: string): string | undefined {
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * DNS-rebinding protection for /mcp: the Host must be the public host or a loopback name, and an
 * Origin, when sent, must be one of those too. Returns why a request is refused, or undefined.
 */
export function hostAndOriginCheck(urls: SiteUrls): (headers: IncomingHttpHeaders) => string | undefined {
  const allowed = new Set([new URL(urls.base).hostname.toLowerCase(), ...LOOPBACK]);
  return (headers) => {
    const host = hostOfHeader(headers.host ?? "");
    if (!host || !allowed.has(host)) return `Forbidden: host ${headers.host ?? "(none)"} is not served here`;
    const origin = headers.origin;
    if (origin !== undefined && !allowed.has(hostnameOf(origin) ?? "")) {
      return `Forbidden: origin ${origin} is not allowed`;
    }
    return undefined;
  };
}

/** The guard as Express middleware: a refused request gets a 403 JSON-RPC error before its body is read. */
export function hostAndOriginGuard(urls: SiteUrls): RequestHandler {
  const check = hostAndOriginCheck(urls);
  return (req, res, next) => {
    const problem = check(req.headers);
    if (problem) {
      res.status(403).json(jsonRpcError(null, -32000, problem));
      return;
    }
    next();
  };
}

const EXPOSED_HEADERS = ["Mcp-Session-Id", "Mcp-Protocol-Version"];

/** CORS for browser MCP clients: the session header must be readable and sendable. */
export const mcpCors = cors({
  origin: true,
  methods: ["POST", "GET", "DELETE", "OPTIONS"],
  allowedHeaders: [
    "Content-Type",
    "Accept",
    "Authorization",
    "Mcp-Session-Id",
    "Mcp-Protocol-Version",
    "Last-Event-ID",
  ],
  exposedHeaders: EXPOSED_HEADERS,
  maxAge: 86_400,
});
