import { type CatalogRelation, PUBLISHED_DOCUMENTS, TOPIC_PATHS } from "@riverbend/shared/registry/documents.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";

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
  const related = (relation: CatalogRelation) =>
    PUBLISHED_DOCUMENTS.filter((row) => "catalog" in row && row.catalog === relation).map((row) =>
      // Typed as served, without parameters: careful clients compare the essence of the type.
      target(`${urls.base}${row.path}`, row.mediaType.split(";")[0] ?? "", catalogTitle(row.title, businessName)),
    );
  return {
    linkset: [
      {
        anchor: urls.home,
        "service-desc": related("service-desc"),
        "service-doc": related("service-doc"),
        describedby: related("describedby"),
        alternate: related("alternate"),
        hub: [{ href: urls.hub, title: `WebSub hub for ${TOPIC_PATHS.join(", ")}` }],
        sitemap: related("sitemap"),
      },
      {
        anchor: urls.mcp,
        "service-desc": [target(urls.serverCard, "application/json", "MCP server card")],
        "service-doc": [target(`${urls.apiDocs}#mcp`, "text/html", "MCP endpoint documentation")],
      },
    ],
  };
}

const catalogTitle = (title: string, businessName: string) =>
  title === "llms.txt" ? `${businessName} reviews for language models` : title;
