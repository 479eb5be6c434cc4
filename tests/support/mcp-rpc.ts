import { request } from "node:http";

/** Headers of the documented curl call: a streamable-HTTP client must accept both JSON and SSE. */
export const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

/** The exact initialize body of the documented curl example, for a given protocol version. */
export function initializeBody(protocolVersion: string, id: number | string = 1): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"initialize","params":{"protocolVersion":"${protocolVersion}","capabilities":{},"clientInfo":{"name":"curl","version":"1.0"}}}`;
}

/** A JSON-RPC response body; results are inspected loosely by the tests. */
export interface JsonRpcBody {
  jsonrpc: string;
  id: string | number | null;
  // biome-ignore lint/suspicious/noExplicitAny: results differ per method and are checked field by field.
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

export interface RpcReply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is empty or not JSON. */
  json: JsonRpcBody | undefined;
}

async function reply(response: Response): Promise<RpcReply> {
  const text = await response.text();
  let json: JsonRpcBody | undefined;
  try {
    json = text === "" ? undefined : (JSON.parse(text) as JsonRpcBody);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** POSTs a raw body (string, or an object serialized as JSON) to `${base}/mcp`. */
export async function postMcp(
  base: string,
  body: string | object,
  headers: Record<string, string> = {},
): Promise<RpcReply> {
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...MCP_HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return reply(response);
}

/** Any method on `${base}/mcp`. */
export async function callMcp(base: string, method: string, headers: Record<string, string> = {}): Promise<RpcReply> {
  return reply(await fetch(`${base}/mcp`, { method, headers }));
}

/** Initializes over raw HTTP and returns the minted session id (and the reply). */
export async function initializeRaw(
  base: string,
  protocolVersion = "2025-06-18",
  headers: Record<string, string> = {},
): Promise<{ session: string; reply: RpcReply }> {
  const result = await postMcp(base, initializeBody(protocolVersion), headers);
  const session = result.headers.get("mcp-session-id");
  if (result.status !== 200 || !session) {
    throw new Error(`initialize failed: ${result.status} ${result.text}`);
  }
  return { session, reply: result };
}

/** A JSON-RPC request in a session, with the protocol version header a real client sends after initialize. */
export function sessionRequest(
  base: string,
  session: string,
  message: object,
  protocolVersion = "2025-06-18",
  headers: Record<string, string> = {},
): Promise<RpcReply> {
  return postMcp(
    base,
    { jsonrpc: "2.0", ...message },
    {
      "Mcp-Session-Id": session,
      "Mcp-Protocol-Version": protocolVersion,
      ...headers,
    },
  );
}

/** A request with full control over the Host header, which fetch does not let a caller set. */
export function rawHttp(
  base: string,
  options: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${options.path}`, { method: options.method, headers: options.headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
