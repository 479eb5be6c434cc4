import { MCP_REVISION_NOTES, MCP_REVISIONS } from "../../mcp/protocol.ts";
import type { Business } from "../../schemas/business.ts";
import { SearchParamsSchema } from "../../schemas/search.ts";
import type { SiteUrls } from "../../site/urls.ts";

export interface LlmsTxtInput {
  business: Pick<Business, "name" | "description">;
  urls: SiteUrls;
  /** MCP tools by name and title, as the server registers them. */
  tools: readonly { name: string; title: string }[];
}

const link = (title: string, url: string, note: string) => `- [${title}](${url}): ${note}`;

/**
 * /llms.txt (llmstxt.org): an H1, a `>` summary and `##` sections of one-line links. It names no
 * figures from the data, so it changes only with the code and can be cached for an hour.
 */
export function buildLlmsTxt({ business, urls, tools }: LlmsTxtInput): string {
  const topics = [urls.atomFeed, urls.jsonFeed, urls.reviewsDocument].join(", ");
  return [
    `# ${business.name} reviews`,
    "",
    `> Verified customer reviews of ${business.name} and insights derived from them: whole-dataset JSON documents, feeds, a search API, an MCP server and a WebSub hub. Read-only and public: no key, account or token.`,
    "",
    `${business.description} Review dates are YYYY-MM-DD in the business's local time zone, ratings are whole stars from 1 to 5, and every review has a stable \`id\`: cite reviews by it.`,
    "",
    "## Documents",
    "",
    link(
      "All reviews",
      urls.reviewsDocument,
      "the business, its aggregate rating and every verified review, newest first (JSON)",
    ),
    link(
      "Insights",
      urls.insightsDocument,
      "figures derived from the reviews per technician, service and service area (JSON)",
    ),
    link("JSON Feed", urls.jsonFeed, "JSON Feed 1.1 of the 50 newest reviews"),
    link("Atom feed", urls.atomFeed, "Atom 1.0 feed of the same 50 reviews"),
    link(
      "Review pages",
      urls.reviewsPage(1),
      "every review as HTML, 50 a page, each with a permalink at /reviews/{id}/",
    ),
    link("Sitemap", urls.sitemap, "every HTML page"),
    "",
    "## API",
    "",
    link("API documentation", urls.apiDocs, "every endpoint with a curl example and a real response"),
    link("OpenAPI description", urls.openapi, "OpenAPI 3.1 description of every endpoint, with JSON Schemas"),
    link("API catalog", urls.apiCatalog, "RFC 9727 linkset of the machine interfaces"),
    link(
      "Search reviews",
      `${urls.search}?min_rating=4&limit=5`,
      `GET with the query parameters ${Object.keys(SearchParamsSchema.shape).join(", ")}`,
    ),
    link(
      "Reviews since a date",
      `${urls.base}/api/reviews/since/2025-01-01`,
      "GET /api/reviews/since/{YYYY-MM-DD}, with ETag for conditional requests",
    ),
    link(
      "WebSub hub",
      urls.hub,
      `POST a form to subscribe to ${topics}; the hub pushes the full document on every change`,
    ),
    "",
    "## MCP",
    "",
    link(
      "MCP endpoint",
      urls.mcp,
      `streamable HTTP, read-only tools: ${tools.map((t) => `${t.name} (${t.title})`).join(", ")}`,
    ),
    ...MCP_REVISIONS.map((revision) => link(`MCP ${revision}`, urls.mcp, MCP_REVISION_NOTES[revision])),
    link(
      "MCP server card",
      urls.serverCard,
      "name, transport, protocol versions, tools with JSON Schemas, and prompts",
    ),
    "",
  ].join("\n");
}
