/** Every public URL of the service, derived from its base URL so nothing hard-codes a host. */
export interface SiteUrls {
  base: string;
  home: string;
  reviewsDocument: string;
  insightsDocument: string;
  jsonFeed: string;
  atomFeed: string;
  openapi: string;
  hub: string;
  search: string;
  mcp: string;
  /** Agent discovery: llms.txt, the RFC 9727 API catalog, the MCP server card, robots.txt, the sitemap. */
  llmsTxt: string;
  apiCatalog: string;
  serverCard: string;
  robots: string;
  sitemap: string;
  /** The human API documentation page. */
  apiDocs: string;
  /** Stable permalink page of one review. */
  permalink(reviewId: string): string;
  /** Page `n` (1-based) of the paginated review browser. */
  reviewsPage(n: number): string;
}

export function siteUrls(baseUrl: string): SiteUrls {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    base,
    home: `${base}/`,
    reviewsDocument: `${base}/reviews.json`,
    insightsDocument: `${base}/insights.json`,
    jsonFeed: `${base}/api/feed.json`,
    atomFeed: `${base}/feed.xml`,
    openapi: `${base}/openapi.json`,
    hub: `${base}/api/websub/hub`,
    search: `${base}/api/reviews/search`,
    mcp: `${base}/mcp`,
    llmsTxt: `${base}/llms.txt`,
    apiCatalog: `${base}/.well-known/api-catalog`,
    serverCard: `${base}/.well-known/mcp/server-card.json`,
    robots: `${base}/robots.txt`,
    sitemap: `${base}/sitemap.xml`,
    apiDocs: `${base}/api/`,
    permalink: (id) => `${base}/reviews/${encodeURIComponent(id)}/`,
    reviewsPage: (n) => (n <= 1 ? `${base}/reviews/` : `${base}/reviews/page/${n}/`),
  };
}
