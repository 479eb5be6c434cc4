import { ENDPOINT_DOCUMENTS, type EndpointPath } from "@riverbend/shared/registry/documents.ts";
import type { APIRoute, GetStaticPaths } from "astro";
import { buildContext } from "../build/context.ts";
import { DOCUMENT_BUILDERS } from "../build/document-builders.ts";

/** One static file per registry row made by an endpoint (packages/shared/src/registry/documents.ts). */
export const getStaticPaths = (() =>
  ENDPOINT_DOCUMENTS.map((row) => ({
    params: { document: row.path.slice(1) },
    props: { path: row.path },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ path: EndpointPath }> = ({ props }) =>
  new Response(DOCUMENT_BUILDERS[props.path](buildContext()));
