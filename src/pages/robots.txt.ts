import type { APIRoute } from "astro";
import { buildContext } from "../build/context.ts";
import { buildRobotsTxt } from "../discovery/documents/robots-txt.ts";

export const GET: APIRoute = () => new Response(buildRobotsTxt(buildContext().urls));
