import { API_CATALOG_TYPE } from "./links.ts";

/*
 * Every document the service publishes, in one table. The Astro endpoints, the manifest's content
 * types, the CDN's cache policy, the WebSub topics, the OpenAPI document's static paths, /llms.txt,
 * the API catalog, the MCP resources, the sidecar's start-up banner and the README's endpoint table
 * are all generated from it; tests/document-registry.test.ts fails when a build publishes a file no
 * row lists. Adding a document: a row here and a builder in src/build/document-builders.ts.
 */

/** How long a CDN or client may reuse a document (see fileHeaders in packages/shared/src/registry/static-headers.ts). */
export type CachePolicy =
  /** Changes with the review data: five minutes, then revalidate. */
  | "data"
  /** Changes only with the code: an hour. */
  | "code"
  /** An HTML page: always revalidate. */
  | "page";

/** Which `##` section of /llms.txt links the document. */
export type LlmsSection = "Documents" | "API" | "MCP";

/** Link relation of the document in the API catalog's first linkset context. */
export type CatalogRelation = "service-desc" | "service-doc" | "describedby" | "alternate" | "sitemap";

export interface PublishedDocument {
  /** URL path, or a folder ending in `*` for a family of pages the build writes (one row for all). */
  path: string;
  /** The Content-Type it is served with. */
  mediaType: string;
  /** Short title: /llms.txt's link text, the MCP resource's title, the API catalog's title. */
  title: string;
  /** One line saying what it holds: /llms.txt's note, the OpenAPI description, the README, the banner. */
  description: string;
  /**
   * Who writes it: `endpoint` an Astro endpoint over the builder of the same path in
   * src/build/document-builders.ts; `page` an Astro page (or image route) in src/pages; `build` the build
   * script, after Astro (review pages, sitemaps).
   */
  madeBy: "endpoint" | "page" | "build";
  /** A WebSub topic: the hub accepts subscriptions to it and pushes it on every change. */
  topic: boolean;
  cache: CachePolicy;
  /** Offered as an MCP resource under this name (and watched on `subscriptions/listen`). */
  mcpResource?: string;
  llms?: LlmsSection;
  /** Listed in the OpenAPI document with this summary and body schema (a component name, or a JSON Schema). */
  openapi?: { summary: string; schema: string | Record<string, unknown> };
  catalog?: CatalogRelation;
}

const JSON_TYPE = "application/json; charset=utf-8";
const HTML_TYPE = "text/html; charset=utf-8";

export const PUBLISHED_DOCUMENTS = [
  {
    path: "/",
    mediaType: HTML_TYPE,
    title: "Home page",
    description: "the business, its rating, what customers say and the newest reviews",
    madeBy: "page",
    topic: false,
    cache: "page",
  },
  {
    path: "/reviews.json",
    mediaType: JSON_TYPE,
    title: "All reviews",
    description: "the business, its aggregate rating and every verified review, newest first (JSON)",
    madeBy: "endpoint",
    topic: true,
    cache: "data",
    mcpResource: "reviews",
    llms: "Documents",
    openapi: { summary: "The whole reviews dataset", schema: "ReviewsDocument" },
    catalog: "alternate",
  },
  {
    path: "/insights.json",
    mediaType: JSON_TYPE,
    title: "Insights",
    description:
      "what customers praise and complain about (aspects with quotes), topics, per-technician and per-service figures, a summary and FAQ, all derived from the reviews (JSON)",
    madeBy: "endpoint",
    topic: false,
    cache: "data",
    mcpResource: "insights",
    llms: "Documents",
    openapi: { summary: "Insights derived from the reviews", schema: "InsightsDocument" },
  },
  {
    path: "/api/feed.json",
    mediaType: "application/feed+json; charset=utf-8",
    title: "JSON Feed",
    description: "JSON Feed 1.1 of the 50 newest reviews, newest first",
    madeBy: "endpoint",
    topic: true,
    cache: "data",
    mcpResource: "json-feed",
    llms: "Documents",
    openapi: { summary: "JSON Feed 1.1 of the 50 newest reviews", schema: "JsonFeed" },
    catalog: "alternate",
  },
  {
    path: "/feed.xml",
    mediaType: "application/atom+xml; charset=utf-8",
    title: "Atom feed",
    description: "Atom 1.0 (RFC 4287) feed of the same 50 reviews",
    madeBy: "endpoint",
    topic: true,
    cache: "data",
    mcpResource: "atom-feed",
    llms: "Documents",
    openapi: { summary: "Atom feed of the 50 newest reviews", schema: { type: "string" } },
    catalog: "alternate",
  },
  {
    path: "/reviews/*",
    mediaType: HTML_TYPE,
    title: "Review pages",
    description: "every review as HTML, 50 a page, with filter listings and a permalink at /reviews/{id}/",
    madeBy: "build",
    topic: false,
    cache: "page",
    llms: "Documents",
  },
  {
    path: "/sitemap.xml",
    mediaType: "application/xml; charset=utf-8",
    title: "Sitemap",
    description: "every HTML page (an index of numbered sitemaps past 50,000 pages)",
    madeBy: "build",
    topic: false,
    cache: "data",
    llms: "Documents",
    catalog: "sitemap",
  },
  {
    path: "/sitemaps/*",
    mediaType: "application/xml; charset=utf-8",
    title: "Numbered sitemaps",
    description: "the sitemap's parts when there are more than 50,000 pages",
    madeBy: "build",
    topic: false,
    cache: "data",
  },
  {
    path: "/api/",
    mediaType: HTML_TYPE,
    title: "API documentation",
    description: "every endpoint with a curl example and a real response",
    madeBy: "page",
    topic: false,
    cache: "page",
    llms: "API",
    catalog: "service-doc",
  },
  {
    path: "/openapi.json",
    mediaType: JSON_TYPE,
    title: "OpenAPI description",
    description: "OpenAPI 3.1 description of every endpoint, with JSON Schemas",
    madeBy: "endpoint",
    topic: false,
    cache: "data",
    llms: "API",
    openapi: { summary: "This OpenAPI description", schema: { type: "object" } },
    catalog: "service-desc",
  },
  {
    path: "/.well-known/api-catalog",
    mediaType: API_CATALOG_TYPE,
    title: "API catalog",
    description: "RFC 9727 linkset of the machine interfaces",
    madeBy: "endpoint",
    topic: false,
    cache: "code",
    llms: "API",
  },
  {
    path: "/verified/",
    mediaType: HTML_TYPE,
    title: "How reviews are verified",
    description: "what each verification method (invoice, job record, ...) checks before a review is published",
    madeBy: "page",
    topic: false,
    cache: "page",
  },
  {
    path: "/embed/",
    mediaType: HTML_TYPE,
    title: "Review widget",
    description: "the rating and the three newest reviews, for an iframe on the business's own website",
    madeBy: "page",
    topic: false,
    cache: "page",
  },
  {
    path: "/badge.svg",
    mediaType: "image/svg+xml",
    title: "Rating badge",
    description: "the rating and the number of verified reviews as an image for the business's website",
    madeBy: "endpoint",
    topic: false,
    cache: "data",
  },
  {
    path: "/badge-dark.svg",
    mediaType: "image/svg+xml",
    title: "Rating badge, dark",
    description: "the rating badge for a dark background",
    madeBy: "endpoint",
    topic: false,
    cache: "data",
  },
  {
    path: "/og/*",
    mediaType: "image/png",
    title: "Social cards",
    description:
      "the og:image of the home page and of the review pages (the newest 200 reviews one each, older ones their star rating's)",
    madeBy: "page",
    topic: false,
    cache: "data",
  },
  {
    path: "/llms.txt",
    // llmstxt.org: the file is Markdown, and a browser shows text/markdown as text anyway.
    mediaType: "text/markdown; charset=utf-8",
    title: "llms.txt",
    description: "this service for language models: its documents, API and MCP server in one page",
    madeBy: "endpoint",
    topic: false,
    cache: "code",
    catalog: "describedby",
  },
  {
    path: "/.well-known/mcp/server-card.json",
    mediaType: JSON_TYPE,
    title: "MCP server card",
    description: "name, transport, protocol versions, tools with JSON Schemas, and prompts",
    madeBy: "endpoint",
    topic: false,
    cache: "code",
    llms: "MCP",
  },
  {
    path: "/robots.txt",
    mediaType: "text/plain; charset=utf-8",
    title: "robots.txt",
    description: "everything may be crawled; content signals for search, AI input and training",
    madeBy: "endpoint",
    topic: false,
    cache: "code",
  },
] as const satisfies readonly PublishedDocument[];

/** The endpoints the sidecar answers itself (the rest of the public surface). */
export interface ServerEndpoint {
  path: string;
  method: "GET" | "POST";
  title: string;
  description: string;
  /** A working example URL path for /llms.txt (defaults to `path`). */
  example?: string;
  llms?: LlmsSection;
}

export const SERVER_ENDPOINTS = [
  {
    path: "/api/reviews/search",
    method: "GET",
    title: "Search reviews",
    description:
      "filters combined with AND (words, rating, technician, service, area, topic, dates), sorted and paged by cursor; counts per filter value with facets=true",
    example: "/api/reviews/search?min_rating=4&limit=5",
    llms: "API",
  },
  {
    path: "/api/reviews/since/{date}",
    method: "GET",
    title: "Reviews since a date",
    description: "GET /api/reviews/since/{YYYY-MM-DD}, with ETag for conditional requests",
    example: "/api/reviews/since/2025-01-01",
    llms: "API",
  },
  {
    path: "/api/websub/hub",
    method: "POST",
    title: "WebSub hub",
    description: "POST a form to subscribe to a topic; the hub pushes the full document on every change",
    llms: "API",
  },
  {
    path: "/mcp",
    method: "POST",
    title: "MCP endpoint",
    description: "Model Context Protocol (streamable HTTP), read-only tools, resources and prompts",
    llms: "MCP",
  },
  { path: "/healthz", method: "GET", title: "Liveness", description: "200 while the process runs" },
  { path: "/readyz", method: "GET", title: "Readiness", description: "200 when a build is loaded and not stopping" },
  {
    path: "/metrics",
    method: "GET",
    title: "Metrics",
    description: "Prometheus metrics (bearer token if METRICS_TOKEN)",
  },
] as const satisfies readonly ServerEndpoint[];

export type DocumentPath = (typeof PUBLISHED_DOCUMENTS)[number]["path"];

/** The rows Astro endpoints build, by path. */
export type EndpointPath = Extract<Row, { madeBy: "endpoint" }>["path"];

export const ENDPOINT_DOCUMENTS = PUBLISHED_DOCUMENTS.filter(
  (row): row is Extract<Row, { madeBy: "endpoint" }> => row.madeBy === "endpoint",
);

type Row = (typeof PUBLISHED_DOCUMENTS)[number];
export type TopicPath = Extract<Row, { topic: true }>["path"];

/**
 * The WebSub topics: URL paths of the documents that track the review data. The hub's replies and
 * `npm run publish` name them feeds first, the reverse of the table's order: the small documents'
 * subscribers hear first.
 */
export const TOPIC_PATHS: readonly TopicPath[] = PUBLISHED_DOCUMENTS.filter(
  (row): row is Extract<Row, { topic: true }> => row.topic,
)
  .map((row) => row.path)
  .reverse();

/** The documents offered as MCP resources (and watched for changes on `subscriptions/listen`). */
export const MCP_RESOURCE_DOCUMENTS = PUBLISHED_DOCUMENTS.filter(
  (row): row is Extract<Row, { mcpResource: string }> => "mcpResource" in row,
).map((row) => ({
  name: row.mcpResource,
  path: row.path,
  mimeType: row.mediaType.split(";")[0] ?? "",
  title: row.title,
}));

/** The row a URL path belongs to: its own, or the family (`folder/*`) it falls in. */
export function documentAt(urlPath: string): PublishedDocument | undefined {
  const rows: readonly PublishedDocument[] = PUBLISHED_DOCUMENTS;
  return (
    rows.find((row) => row.path === urlPath) ??
    rows.find((row) => row.path.endsWith("*") && urlPath.startsWith(row.path.slice(0, -1)))
  );
}

/**
 * The published paths no registry row lists. `assets` are the files copied as they are from public/
 * (stylesheets, scripts, icons); Astro's hashed assets live under /_astro/.
 */
export function unregisteredPaths(paths: Iterable<string>, assets: ReadonlySet<string>): string[] {
  return [...paths].filter((p) => !assets.has(p) && !p.startsWith("/_astro/") && documentAt(p) === undefined);
}
