import { PUBLISHED_DOCUMENTS } from "@riverbend/shared/registry/documents.ts";
import { SearchParamsSchema } from "@riverbend/shared/schemas/search.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { componentSchemas, ref } from "./components.ts";

const json = (schema: object, description: string, type = "application/json") => ({
  description,
  content: { [type]: { schema } },
});
const cacheHeaders = {
  ETag: { description: "Strong entity tag of the body.", schema: { type: "string" } },
  "Last-Modified": {
    description: "Date of the latest change in the data behind the body.",
    schema: { type: "string" },
  },
};
const notModified = {
  description: "Not modified: the If-None-Match or If-Modified-Since validator matched. Empty body.",
};
const error = (description: string) => json(ref("ErrorResponse"), description);
const conditional = [
  { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } },
  { name: "If-Modified-Since", in: "header", required: false, schema: { type: "string" } },
];

function staticDocument(summary: string, schema: object, type: string, description: string, topic: boolean) {
  return {
    get: {
      summary,
      description: topic
        ? `${description} A WebSub topic: subscribe at the hub named in the Link header.`
        : description,
      tags: ["documents"],
      parameters: conditional,
      responses: {
        "200": { ...json(schema, summary, type), headers: cacheHeaders },
        "304": notModified,
      },
    },
  };
}

/** The registry's documents that have an OpenAPI entry, in registry order. */
function staticDocumentPaths() {
  const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  return Object.fromEntries(
    PUBLISHED_DOCUMENTS.filter((row) => "openapi" in row).map((row) => {
      const { summary, schema } = row.openapi;
      const body = typeof schema === "string" ? ref(schema) : schema;
      const type = row.mediaType.split(";")[0] ?? "";
      return [row.path, staticDocument(summary, body, type, sentence(row.description), row.topic)];
    }),
  );
}

/** Query parameters from a params schema's component (all optional), less those given elsewhere. */
function queryParameters(id: string, names: readonly string[]) {
  const properties = componentSchemas()[id]?.properties as Record<string, Record<string, unknown>>;
  return names.map((name) => {
    const { description, ...schema } = properties[name] ?? {};
    return { name, in: "query", required: false, description, schema };
  });
}

/** The OpenAPI 3.1 description of every endpoint, with component schemas generated from zod. */
export function buildOpenApiDocument(urls: SiteUrls, businessName: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: `${businessName} reviews API`,
      version: "1.0.0",
      summary: "Verified customer reviews and derived insights, read-only and public.",
      description:
        "Whole-dataset documents and feeds are static files; search, since, the MCP endpoint and the WebSub hub are served by the sidecar. No key or account is needed.",
      license: { name: "Proprietary: review texts belong to their authors", identifier: "LicenseRef-Reviews" },
    },
    servers: [{ url: urls.base }],
    // Every endpoint is public: no key, account or token (spec section 5).
    security: [],
    tags: [
      { name: "documents", description: "Prerendered documents, cacheable on any CDN." },
      { name: "reviews", description: "Queries answered by the sidecar." },
      { name: "agents", description: "Machine interfaces: MCP and WebSub." },
    ],
    paths: {
      ...staticDocumentPaths(),
      "/api/reviews/search": {
        get: {
          operationId: "searchReviews",
          summary: "Search reviews",
          description:
            "All filters combine with AND. Unknown, repeated or empty parameters are rejected with 400. The MCP tool search_reviews takes the same arguments.",
          tags: ["reviews"],
          parameters: queryParameters("SearchParams", Object.keys(SearchParamsSchema.shape)),
          responses: {
            "200": { ...json(ref("SearchResponse"), "Matching reviews with all their fields."), headers: cacheHeaders },
            "400": error("Invalid query parameters; `issues` lists every problem."),
          },
        },
      },
      "/api/reviews/since/{date}": {
        get: {
          operationId: "reviewsSince",
          summary: "Reviews dated on or after a date",
          description:
            "For incremental sync; supports conditional GET with ETag and Last-Modified. Without limit every matching review is returned; with limit, page with next_cursor. Unknown parameters are rejected with 400.",
          tags: ["reviews"],
          parameters: [
            { name: "date", in: "path", required: true, schema: ref("IsoDate") },
            ...queryParameters("SinceParams", ["limit", "cursor"]),
            ...conditional,
          ],
          responses: {
            "200": {
              ...json(ref("SinceResponse"), "Reviews with date >= {date}, newest first."),
              headers: cacheHeaders,
            },
            "304": notModified,
            "400": error(
              "The date, limit or cursor is invalid, or a parameter is unknown; `issues` lists every problem.",
            ),
          },
        },
      },
      "/mcp": {
        post: {
          operationId: "mcp",
          summary: "Model Context Protocol endpoint (streamable HTTP)",
          description:
            "JSON-RPC 2.0. Send Accept: application/json, text/event-stream. initialize returns the Mcp-Session-Id header to send on later requests.",
          tags: ["agents"],
          requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
          responses: {
            "200": json({ type: "object" }, "A JSON-RPC 2.0 response (JSON or an event stream)."),
            "400": json({ type: "object" }, "A JSON-RPC error: malformed request or missing session."),
            "404": json({ type: "object" }, "Unknown or expired session: initialize again."),
          },
        },
      },
      "/api/websub/hub": {
        post: {
          operationId: "websubHub",
          summary: "WebSub hub: subscribe or unsubscribe",
          description: `Topics: ${urls.atomFeed}, ${urls.jsonFeed}, ${urls.reviewsDocument}. The callback must be HTTPS and echo hub.challenge.`,
          tags: ["agents"],
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["hub.callback", "hub.mode", "hub.topic"],
                  properties: {
                    "hub.callback": { type: "string", format: "uri", description: "HTTPS URL of the subscriber." },
                    "hub.mode": { type: "string", enum: ["subscribe", "unsubscribe"] },
                    "hub.topic": { type: "string", enum: [urls.atomFeed, urls.jsonFeed, urls.reviewsDocument] },
                    "hub.lease_seconds": { type: "integer", minimum: 1 },
                    "hub.secret": { type: "string", maxLength: 199 },
                  },
                },
              },
            },
          },
          responses: {
            "202": { description: "Accepted: verification of intent follows asynchronously." },
            "400": {
              description: "Rejected, with a plain-text reason.",
              content: { "text/plain": { schema: { type: "string" } } },
            },
          },
        },
      },
    },
    components: { schemas: componentSchemas() },
  };
}
