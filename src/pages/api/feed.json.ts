import type { APIRoute } from "astro";
import { buildContext } from "../../build/context.ts";
import { buildJsonFeed } from "../../feeds/json-feed/build.ts";

export const GET: APIRoute = () => {
  const { dataset, urls } = buildContext();
  return new Response(JSON.stringify(buildJsonFeed(dataset, urls)));
};
