import { MCP_REVISION_NOTES, MCP_REVISIONS } from "@riverbend/shared/mcp-catalog/protocol.ts";
import {
  type LlmsSection,
  PUBLISHED_DOCUMENTS,
  SERVER_ENDPOINTS,
  TOPIC_PATHS,
} from "@riverbend/shared/registry/documents.ts";
import type { Business } from "@riverbend/shared/schemas/business.ts";
import { SearchParamsSchema } from "@riverbend/shared/schemas/search.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";

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
  const lines = (section: LlmsSection): string[] => [
    `## ${section}`,
    "",
    ...PUBLISHED_DOCUMENTS.filter((row) => "llms" in row && row.llms === section).map((row) =>
      link(row.title, documentUrl(urls, row.path), row.description),
    ),
    ...SERVER_ENDPOINTS.filter((row) => "llms" in row && row.llms === section).map((row) =>
      link(
        row.title,
        `${urls.base}${"example" in row ? row.example : row.path}`,
        endpointNote(row.path, row.description, urls, tools),
      ),
    ),
  ];
  return [
    `# ${business.name} reviews`,
    "",
    `> Verified customer reviews of ${business.name} and insights derived from them: whole-dataset JSON documents, feeds, a search API, an MCP server and a WebSub hub. Read-only and public: no key, account or token.`,
    "",
    `${business.description} Review dates are YYYY-MM-DD in the business's local time zone, ratings are whole stars from 1 to 5, and every review has a stable \`id\`: cite reviews by it.`,
    "",
    ...lines("Documents"),
    "",
    ...lines("API"),
    "",
    ...lines("MCP"),
    ...MCP_REVISIONS.map((revision) => link(`MCP ${revision}`, urls.mcp, MCP_REVISION_NOTES[revision])),
    "",
  ].join("\n");
}

/** A family row (`/reviews/*`) links its first page. */
const documentUrl = (urls: SiteUrls, path: string) => `${urls.base}${path.endsWith("*") ? path.slice(0, -1) : path}`;

/** What only this file adds to a server endpoint's registry line: the live parameter and tool lists. */
function endpointNote(path: string, description: string, urls: SiteUrls, tools: LlmsTxtInput["tools"]): string {
  if (path === "/api/reviews/search") {
    return `${description}; query parameters ${Object.keys(SearchParamsSchema.shape).join(", ")}`;
  }
  if (path === "/api/websub/hub") {
    return `${description} (topics ${TOPIC_PATHS.map((topic) => `${urls.base}${topic}`).join(", ")})`;
  }
  if (path === "/mcp") return `${description}: ${tools.map((t) => `${t.name} (${t.title})`).join(", ")}`;
  return description;
}
