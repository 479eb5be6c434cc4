import type { APIRoute } from "astro";
import { buildContext } from "../build/context.ts";
import { buildLlmsTxt } from "../discovery/documents/llms-txt.ts";
import { TOOLS } from "../mcp/tool-catalog.ts";

export const GET: APIRoute = () => {
  const { dataset, urls } = buildContext();
  return new Response(buildLlmsTxt({ business: dataset.business, urls, tools: TOOLS }));
};
