import type { APIRoute } from "astro";
import { buildContext } from "../../build/context.ts";
import { buildApiCatalog } from "../../discovery/documents/api-catalog.ts";

export const GET: APIRoute = () => {
  const { dataset, urls } = buildContext();
  return new Response(JSON.stringify(buildApiCatalog(urls, dataset.business.name), null, 2));
};
