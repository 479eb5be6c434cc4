import type { APIRoute } from "astro";
import { buildContext } from "../../../build/context.ts";
import { buildServerCard } from "../../../discovery/documents/server-card.ts";

export const GET: APIRoute = () => new Response(JSON.stringify(buildServerCard(buildContext().urls), null, 2));
