import type { APIRoute } from "astro";
import { buildContext } from "../build/context.ts";
import { buildReviewsDocument } from "../documents/reviews-document.ts";

export const GET: APIRoute = () => new Response(JSON.stringify(buildReviewsDocument(buildContext().dataset)));
