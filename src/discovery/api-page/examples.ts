import { SERVER_INFO } from "@riverbend/shared/mcp-catalog/listing.ts";
import { MCP_CURRENT_REVISION, MCP_SESSION_REVISIONS } from "@riverbend/shared/mcp-catalog/protocol.ts";
import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import { reviewsSince } from "@riverbend/shared/search/reviews-since.ts";
import { buildSearchIndex } from "@riverbend/shared/search/search-index.ts";
import { searchReviews } from "@riverbend/shared/search/search-reviews.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { buildAtomFeed } from "../../feeds/atom/build.ts";
import { buildJsonFeed } from "../../feeds/json-feed/build.ts";
import { buildOpenApiDocument } from "../../openapi/document.ts";
import { buildReviewsDocument } from "../../reviews-document/reviews-document.ts";

/** A request that works against the live service, and what it answers for this build's data. */
export interface ApiExample {
  /** "GET /api/reviews/search": method and OpenAPI path. */
  operation: string;
  /** Path and query actually requested, e.g. `/api/reviews/search?rating=5&limit=2`. */
  request: string;
  curl: string;
  status: number;
  contentType: string;
  /** The response body: a JSON value, or text. */
  body: unknown;
}

const q = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/**
 * One example per endpoint of the OpenAPI description, answered by the same code that serves it:
 * the document builders, the search service and the MCP tools, over this build's data. The insights
 * document comes from the caller, which builds it as /insights.json does.
 */
export function apiExamples(dataset: Dataset, urls: SiteUrls, insights: unknown): ApiExample[] {
  const index = buildSearchIndex(buildReviewsDocument(dataset), dataset.sourceSha256);
  const get = (path: string, contentType: string, body: unknown): ApiExample => ({
    operation: `GET ${path.split("?")[0]}`,
    request: path,
    curl: `curl -s ${q(urls.base + path)}`,
    status: 200,
    contentType,
    body,
  });
  const service = dataset.business.services[0]?.id;
  const search = { min_rating: 4, ...(service ? { mentions_service: service } : {}), limit: 2 };
  const searchQuery = new URLSearchParams(Object.entries(search).map(([k, v]) => [k, String(v)])).toString();
  const sinceDate = dataset.reviews[Math.min(2, dataset.reviews.length - 1)]?.date ?? "2025-01-01";
  // The search_reviews tool runs exactly searchReviews: the same arguments, the same answer.
  const toolArgs = { rating: 5, limit: 1 };
  const structured = searchReviews(index, toolArgs);
  const mcpCall = {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "search_reviews", arguments: toolArgs },
  };
  // The current revision: the same call, self-describing (no session); its headers repeat the body.
  const modernCall = {
    ...mcpCall,
    params: {
      ...mcpCall.params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MCP_CURRENT_REVISION,
        "io.modelcontextprotocol/clientInfo": { name: "curl", version: "1.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  };
  const modernHeaders = `-H 'MCP-Protocol-Version: ${MCP_CURRENT_REVISION}' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: search_reviews'`;
  const [legacy] = MCP_SESSION_REVISIONS.slice(-1);
  const mcpHeaders = `-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream'`;
  return [
    get("/reviews.json", "application/json", buildReviewsDocument(dataset)),
    get("/insights.json", "application/json", insights),
    get("/api/feed.json", "application/feed+json", buildJsonFeed(dataset, urls)),
    get("/feed.xml", "application/atom+xml", buildAtomFeed(dataset, urls)),
    get("/openapi.json", "application/json", buildOpenApiDocument(urls, dataset.business.name)),
    {
      ...get(`/api/reviews/search?${searchQuery}`, "application/json", searchReviews(index, search)),
      operation: "GET /api/reviews/search",
    },
    {
      ...get(`/api/reviews/since/${sinceDate}`, "application/json", reviewsSince(index, { date: sinceDate })),
      operation: "GET /api/reviews/since/{date}",
    },
    {
      operation: "POST /mcp",
      request: "/mcp",
      curl: [
        `# ${MCP_CURRENT_REVISION}: one request, no session (the answer below)`,
        `curl -s ${q(urls.mcp)} ${mcpHeaders} ${modernHeaders} -d ${q(JSON.stringify(modernCall))}`,
        `# ${legacy}: 1. initialize; the Mcp-Session-Id response header opens a session`,
        `curl -si ${q(urls.mcp)} ${mcpHeaders} -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"${legacy}","capabilities":{},"clientInfo":{"name":"curl","version":"1.0"}}}'`,
        `# ${legacy}: 2. call a tool in that session (the same result, without resultType and _meta)`,
        `curl -s ${q(urls.mcp)} ${mcpHeaders} -H 'Mcp-Session-Id: SESSION_ID_FROM_STEP_1' -H 'MCP-Protocol-Version: ${legacy}' -d ${q(JSON.stringify(mcpCall))}`,
      ].join("\n"),
      status: 200,
      contentType: "application/json",
      body: {
        result: {
          content: [{ type: "text", text: JSON.stringify(structured) }],
          structuredContent: structured,
          resultType: "complete",
          _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
        },
        jsonrpc: "2.0",
        id: 2,
      },
    },
    {
      operation: "POST /api/websub/hub",
      request: "/api/websub/hub",
      curl: `curl -si ${q(urls.hub)} -d hub.mode=subscribe --data-urlencode ${q(`hub.topic=${urls.atomFeed}`)} --data-urlencode 'hub.callback=https://subscriber.example/callback' -d hub.lease_seconds=864000`,
      status: 202,
      contentType: "text/plain",
      body: "Accepted: verification of intent follows.",
    },
  ];
}
