import { TOOLS } from "@riverbend/shared/mcp-catalog/tool-catalog.ts";
import type { EndpointPath } from "@riverbend/shared/registry/documents.ts";
import { buildApiCatalog } from "../discovery/documents/api-catalog.ts";
import { buildLlmsTxt } from "../discovery/documents/llms-txt.ts";
import { buildRobotsTxt } from "../discovery/documents/robots-txt.ts";
import { buildServerCard } from "../discovery/documents/server-card.ts";
import { buildAtomFeed } from "../feeds/atom/build.ts";
import { buildJsonFeed } from "../feeds/json-feed/build.ts";
import { serializeInsights } from "../insights/serialize.ts";
import { buildOpenApiDocument } from "../openapi/document.ts";
import { aggregateRating } from "../reviews-document/aggregate.ts";
import { buildReviewsDocument } from "../reviews-document/reviews-document.ts";
import { badgeSvg } from "../site/badge/badge-svg.ts";
import type { BuildContext } from "./context.ts";

/**
 * The body of every document an Astro endpoint publishes, by its registry path: a missing or extra
 * entry is a type error, so the registry and the builders cannot disagree.
 */
export const DOCUMENT_BUILDERS: Record<EndpointPath, (context: BuildContext) => string> = {
  "/reviews.json": ({ dataset }) => JSON.stringify(buildReviewsDocument(dataset)),
  "/insights.json": ({ insights }) => serializeInsights(insights),
  "/api/feed.json": ({ dataset, urls }) => JSON.stringify(buildJsonFeed(dataset, urls)),
  "/feed.xml": ({ dataset, urls }) => buildAtomFeed(dataset, urls),
  "/openapi.json": ({ dataset, urls }) => JSON.stringify(buildOpenApiDocument(urls, dataset.business.name)),
  "/.well-known/api-catalog": ({ dataset, urls }) =>
    JSON.stringify(buildApiCatalog(urls, dataset.business.name), null, 2),
  "/llms.txt": ({ dataset, urls }) => buildLlmsTxt({ business: dataset.business, urls, tools: TOOLS }),
  "/.well-known/mcp/server-card.json": ({ urls }) => JSON.stringify(buildServerCard(urls), null, 2),
  "/robots.txt": ({ urls }) => buildRobotsTxt(urls),
  "/badge.svg": ({ dataset }) => badgeSvg(dataset.business.name, aggregateRating(dataset.reviews), "light"),
  "/badge-dark.svg": ({ dataset }) => badgeSvg(dataset.business.name, aggregateRating(dataset.reviews), "dark"),
};
