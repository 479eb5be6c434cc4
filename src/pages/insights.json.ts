import type { APIRoute } from "astro";
import { buildContext } from "../build/context.ts";
import { serializeInsights } from "../insights/serialize.ts";

export const GET: APIRoute = () => new Response(serializeInsights(buildContext().insights));
