import { type SpecTypeName, specTypeSchemas } from "@modelcontextprotocol/server";

/** The MCP schema of each request method the server answers through its McpServer. */
const REQUEST_SCHEMAS: Readonly<Record<string, SpecTypeName>> = {
  ping: "PingRequest",
  "tools/list": "ListToolsRequest",
  "tools/call": "CallToolRequest",
  "resources/list": "ListResourcesRequest",
  "resources/templates/list": "ListResourceTemplatesRequest",
  "resources/read": "ReadResourceRequest",
  "prompts/list": "ListPromptsRequest",
  "prompts/get": "GetPromptRequest",
  "completion/complete": "CompleteRequest",
  "logging/setLevel": "SetLevelRequest",
};

const MAX_LISTED = 5;
const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);

/**
 * Why a JSON-RPC request's params do not fit its method's MCP schema, in one short line (the first
 * few problems, each as path and reason), or undefined when they fit or the method is not one of
 * those above. Checked before the SDK, which answers some of these with -32603 and the validator's
 * whole issue list as its message.
 */
export function paramsProblem(message: unknown): string | undefined {
  const method = (message as { method?: unknown } | null)?.method;
  if (typeof method !== "string" || !Object.hasOwn(REQUEST_SCHEMAS, method)) return undefined;
  const schema = specTypeSchemas[REQUEST_SCHEMAS[method] as SpecTypeName];
  const outcome = schema["~standard"].validate(message);
  if (!outcome.issues) return undefined;
  const listed = outcome.issues.slice(0, MAX_LISTED).map((issue) => {
    const path = (issue.path ?? []).map((key) => String(typeof key === "object" ? key.key : key)).join(".");
    return clip(`${path || "params"}: ${issue.message.replace(/^Invalid input: /, "")}`);
  });
  const more = outcome.issues.length - listed.length;
  return `Invalid params for ${method}: ${listed.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
}
