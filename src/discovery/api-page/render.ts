import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import type { ApiExample } from "./examples.ts";

const MAX_LINES = 60;

/** Arrays cut to their first element, so a whole-dataset example stays readable. */
function shorten(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 1).map(shorten);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
}

function exampleBody(example: ApiExample): string {
  const text = typeof example.body === "string" ? example.body : JSON.stringify(shorten(example.body), null, 2);
  const lines = text.split("\n");
  return lines.length > MAX_LINES ? `${lines.slice(0, MAX_LINES).join("\n")}\n…` : text;
}

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

interface Operation {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }[];
  responses?: Record<string, { description?: string }>;
}

interface OpenApi {
  paths: Record<string, object>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/**
 * A parameter's type as a reader wants it: `$ref`s resolved, ranges and enums spelled out
 * ("integer, 1 to 5", "newest, oldest, highest or lowest", "date, YYYY-MM-DD").
 */
export function typeText(schema: JsonSchema | undefined, components: Record<string, JsonSchema> = {}): string {
  if (!schema) return "";
  const resolved = schema.$ref ? { ...components[schema.$ref.split("/").pop() ?? ""], ...schema } : schema;
  const alternatives = resolved.anyOf ?? resolved.oneOf;
  if (alternatives) return alternatives.map((s) => typeText(s, components)).join(" or ");
  if (resolved.enum) {
    const values = resolved.enum.map(String);
    return values.length === 1 ? (values[0] ?? "") : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
  }
  const type = Array.isArray(resolved.type) ? resolved.type.join(" or ") : (resolved.type ?? "");
  if (resolved.format === "date" || resolved.pattern === "^\\d{4}-\\d{2}-\\d{2}$")
    return `${type || "string"} (date, YYYY-MM-DD)`;
  if (resolved.minimum !== undefined && resolved.maximum !== undefined) {
    return `${type}, ${resolved.minimum} to ${resolved.maximum}`;
  }
  return type;
}

export interface ApiOperationView {
  id: string;
  operation: string;
  summary: string;
  description: string;
  parameters: { name: string; in: string; required: boolean; type: string; description: string }[];
  responses: { status: string; description: string }[];
  example?: { curl: string; status: number; contentType: string; body: string } | undefined;
}

const anchorOf = (operation: string) =>
  operation === "POST /mcp"
    ? "mcp"
    : operation
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "");

/**
 * What the human API page shows (src/pages/api/index.astro renders it): every operation of the
 * OpenAPI description with its parameters, responses and a worked example, and the discovery links.
 * Long example bodies show arrays with their first element only.
 */
export function apiPageModel(openapi: OpenApi, examples: readonly ApiExample[], urls: SiteUrls) {
  const byOperation = new Map(examples.map((e) => [e.operation, e]));
  const components = openapi.components?.schemas ?? {};
  const operations: ApiOperationView[] = [];
  for (const [path, methods] of Object.entries(openapi.paths)) {
    for (const [method, spec] of Object.entries(methods as Record<string, Operation>)) {
      const operation = `${method.toUpperCase()} ${path}`;
      const example = byOperation.get(operation);
      operations.push({
        id: anchorOf(operation),
        operation,
        summary: spec.summary ?? "",
        description: spec.description ?? "",
        parameters: (spec.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required === true,
          type: typeText(p.schema, components),
          description: p.description ?? "",
        })),
        responses: Object.entries(spec.responses ?? {}).map(([status, r]) => ({
          status,
          description: r.description ?? "",
        })),
        example: example && {
          curl: example.curl,
          status: example.status,
          contentType: example.contentType,
          body: exampleBody(example),
        },
      });
    }
  }
  const discovery: [string, string][] = [
    [urls.openapi, "OpenAPI 3.1 description (the source of this page)"],
    [urls.apiCatalog, "API catalog (RFC 9727 linkset)"],
    [urls.serverCard, "MCP server card: tools with their JSON Schemas, prompts"],
    [urls.llmsTxt, "llms.txt: the service in Markdown, for language models"],
    [urls.sitemap, "Sitemap of every page"],
  ];
  return { operations, discovery };
}

/** Inline Markdown of OpenAPI descriptions (`code` only) as text and code parts, for the page to render. */
export function inlineCode(text: string): { code: boolean; text: string }[] {
  return text.split("`").map((part, i) => ({ code: i % 2 === 1, text: part }));
}
