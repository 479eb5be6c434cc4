import type { IncomingMessage, ServerResponse } from "node:http";
import type { ToolCallResponse } from "./direct-call.ts";

/** The MCP endpoint's path, and its route label in the request metrics. */
export const MCP_PATH = "/mcp";

/**
 * What the MCP routes lend the raw tools/call fast path (fast-path/mcp-call.ts) once they are
 * loaded: the very functions and the very rate limiter the Express route uses. This module is
 * light (types only) so the fast path can import it without pulling in the MCP SDK at start-up.
 */
export interface McpDirectEndpoint {
  /** The body limit of /mcp. */
  maxBodyBytes: number;
  /**
   * From the headers alone: Host and Origin accepted, a valid session, and the Accept, Content-Type
   * and protocol version a direct tools/call needs. False leaves the request to Express unread.
   */
  mayAnswer(req: IncomingMessage): boolean;
  /**
   * The whole response body for a JSON-RPC `tools/call` in this body (a tool result, `isError`
   * included), or undefined for anything Express (and the SDK) must answer: other methods,
   * notifications, batches, malformed JSON, an unknown tool, a session no longer valid.
   */
  answer(req: IncomingMessage, body: Buffer): ToolCallResponse | undefined;
  /** Writes the response after its headers. */
  write(res: ServerResponse, response: ToolCallResponse): void;
  /** The CORS headers of /mcp answers (the same `cors` middleware). */
  cors(req: IncomingMessage, res: ServerResponse): void;
  /**
   * Counts the request in the Express route's own per-client rate limiter (same windows, same
   * headers), synchronously; false when the limiter answered 429 itself.
   */
  limit(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * Where the MCP routes put their endpoint once loaded; createSidecarServer hands the same slot to
 * its app and to its fast path. Empty until the routes load (the fast path then leaves /mcp alone).
 */
export interface DirectEndpointSlot {
  current?: McpDirectEndpoint;
}
