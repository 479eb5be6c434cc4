import type { APIRoute } from "astro";
import { buildContext } from "../build/context.ts";
import { buildAtomFeed } from "../feeds/atom/build.ts";

export const GET: APIRoute = () => {
  const { dataset, urls } = buildContext();
  return new Response(buildAtomFeed(dataset, urls));
};
