import type { APIRoute } from "astro";
import { buildContext } from "../build/context.ts";
import { aggregateRating } from "../reviews-document/aggregate.ts";
import { badgeSvg } from "../site/badge/badge-svg.ts";

export const GET: APIRoute = () => {
  const { dataset } = buildContext();
  return new Response(badgeSvg(dataset.business.name, aggregateRating(dataset.reviews), "dark"), {
    headers: { "Content-Type": "image/svg+xml" },
  });
};
