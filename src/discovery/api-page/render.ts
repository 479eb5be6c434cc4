import { escapeHtml as h } from "../../site/html.ts";
import type { SiteUrls } from "../../web/urls.ts";
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

interface Operation {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: { type?: string } }[];
  responses?: Record<string, { description?: string }>;
}

const anchorOf = (operation: string) =>
  operation === "POST /mcp"
    ? "mcp"
    : operation
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "");

function parametersTable(parameters: NonNullable<Operation["parameters"]>): string {
  if (parameters.length === 0) return "";
  const rows = parameters.map(
    (p) =>
      `<tr><td><code>${h(p.name)}</code></td><td>${h(p.in)}</td><td>${p.required ? "yes" : "no"}</td>` +
      `<td>${h(p.schema?.type ?? "")}</td><td>${h(p.description ?? "")}</td></tr>`,
  );
  return `<table><thead><tr><th>Parameter</th><th>In</th><th>Required</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function operationSection(operation: string, spec: Operation, example: ApiExample | undefined): string {
  const responses = Object.entries(spec.responses ?? {})
    .map(([status, r]) => `<li><code>${h(status)}</code> ${h(r.description ?? "")}</li>`)
    .join("");
  const sample = example
    ? `<h4>Example request</h4><pre><code>${h(example.curl)}</code></pre>` +
      `<h4>Example response: ${example.status}, <code>${h(example.contentType)}</code></h4>` +
      `<pre><code>${h(exampleBody(example))}</code></pre>`
    : "";
  return (
    `<section id="${anchorOf(operation)}"><h3><code>${h(operation)}</code>: ${h(spec.summary ?? "")}</h3>` +
    `<p>${h(spec.description ?? "")}</p>${parametersTable(spec.parameters ?? [])}` +
    `<h4>Responses</h4><ul>${responses}</ul>${sample}</section>`
  );
}

/**
 * The body of the human API page: every operation of the OpenAPI description with its parameters,
 * responses and a worked example. Long example bodies show arrays with their first element only.
 */
export function apiPageHtml(
  openapi: { paths: Record<string, object> },
  examples: readonly ApiExample[],
  urls: SiteUrls,
) {
  const byOperation = new Map(examples.map((e) => [e.operation, e]));
  const sections: string[] = [];
  for (const [path, methods] of Object.entries(openapi.paths)) {
    for (const [method, spec] of Object.entries(methods as Record<string, Operation>)) {
      const operation = `${method.toUpperCase()} ${path}`;
      sections.push(operationSection(operation, spec, byOperation.get(operation)));
    }
  }
  const discovery = [
    [urls.openapi, "OpenAPI 3.1 description (the source of this page)"],
    [urls.apiCatalog, "API catalog (RFC 9727 linkset)"],
    [urls.serverCard, "MCP server card: tools with their JSON Schemas, prompts"],
    [urls.llmsTxt, "llms.txt: the service in Markdown, for language models"],
    [urls.sitemap, "Sitemap of every page"],
  ]
    .map(([href, text]) => `<li><a href="${h(href ?? "")}">${h(text ?? "")}</a></li>`)
    .join("");
  return (
    `<h1>API</h1><p>Every endpoint is public and read-only: no key, account or token. ` +
    `Examples are real answers for the data of this build; long arrays are cut to their first element.</p>` +
    `<ul>${discovery}</ul><h2>Endpoints</h2>${sections.join("")}`
  );
}
