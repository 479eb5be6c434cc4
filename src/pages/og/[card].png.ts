import type { APIRoute, GetStaticPaths } from "astro";
import { buildContext } from "../../build/context.ts";
import { socialCards } from "../../site/og/write-cards.ts";

export const getStaticPaths: GetStaticPaths = () =>
  [...socialCards(buildContext().dataset)].map(([path, png]) => ({
    params: { card: path.slice("/og/".length, -".png".length) },
    props: { png },
  }));

export const GET: APIRoute = ({ props }) =>
  new Response(new Uint8Array(props.png as Buffer), { headers: { "Content-Type": "image/png" } });
