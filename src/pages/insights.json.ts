import type { APIRoute } from "astro";
import { buildContext } from "../build/context.ts";
import { buildInsightsDocument } from "../insights/entities.ts";

export const GET: APIRoute = () => new Response(JSON.stringify(buildInsightsDocument(buildContext().dataset)));
