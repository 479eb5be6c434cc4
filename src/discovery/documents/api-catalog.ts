import type { SiteUrls } from "../../site/urls.ts";

interface Target {
  href: string;
  type: string;
  title?: string;
}

/**
 * /.well-known/api-catalog (RFC 9727): an RFC 9264 linkset with one context per interface. The
 * OpenAPI document is typed `application/json`, the type it is served with: a type hint that
 * disagrees with the response's Content-Type would only make careful clients distrust one of them.
 */
export function buildApiCatalog(urls: SiteUrls, businessName: string) {
  const target = (href: string, type: string, title: string): Target => ({ href, type, title });
  return {
    linkset: [
      {
        anchor: urls.home,
        "service-desc": [target(urls.openapi, "application/json", "OpenAPI 3.1 description")],
        "service-doc": [target(urls.apiDocs, "text/html", "API documentation with examples")],
        describedby: [target(urls.llmsTxt, "text/markdown", `${businessName} reviews for language models`)],
        alternate: [
          target(urls.jsonFeed, "application/feed+json", "JSON Feed of the newest reviews"),
          target(urls.atomFeed, "application/atom+xml", "Atom feed of the newest reviews"),
          target(urls.reviewsDocument, "application/json", "All reviews"),
        ],
        hub: [{ href: urls.hub, title: "WebSub hub for the feeds and reviews.json" }],
        sitemap: [target(urls.sitemap, "application/xml", "Sitemap")],
      },
      {
        anchor: urls.mcp,
        "service-desc": [target(urls.serverCard, "application/json", "MCP server card")],
        "service-doc": [target(`${urls.apiDocs}#mcp`, "text/html", "MCP endpoint documentation")],
      },
    ],
  };
}
