import type { APIRoute } from "astro";
import { buildContext } from "../build/context.ts";
import { buildOpenApiDocument } from "../openapi/document.ts";

export const GET: APIRoute = () => {
  const { dataset, urls } = buildContext();
  return new Response(JSON.stringify(buildOpenApiDocument(urls, dataset.business.name)));
};
