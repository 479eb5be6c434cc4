/** A JSON-RPC 2.0 error response body, for the answers the HTTP layer gives before the SDK. */
export function jsonRpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: "2.0" as const, id, error: { code, message } };
}
