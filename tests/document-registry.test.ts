import { readdirSync, readFileSync } from "node:fs";
import { MCP_RESOURCE_DOCUMENTS } from "@riverbend/shared/mcp-catalog/protocol.ts";
import {
  ENDPOINT_DOCUMENTS,
  PUBLISHED_DOCUMENTS,
  TOPIC_PATHS,
  unregisteredPaths,
} from "@riverbend/shared/registry/documents.ts";
import { withEndpointTable } from "@riverbend/shared/registry/endpoint-table.ts";
import type { BuildManifest } from "@riverbend/shared/schemas/manifest.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { describe, expect, inject, it } from "vitest";
import { DOCUMENT_BUILDERS } from "../src/build/document-builders.ts";
import { buildOpenApiDocument } from "../src/openapi/document.ts";

const manifest = () => JSON.parse(readFileSync(`${inject("sampleDist")}/build-manifest.json`, "utf8")) as BuildManifest;
const ASSETS = new Set(readdirSync("public").map((file) => `/${file}`));
const exactRows = PUBLISHED_DOCUMENTS.filter((row) => !row.path.endsWith("*"));

describe("the document registry", () => {
  it("lists every file the build publishes, apart from the assets copied from public/", () => {
    const paths = manifest().entries.map((entry) => entry.path);
    expect(unregisteredPaths(paths, ASSETS)).toEqual([]);
  });

  it("would catch a document published without a row", () => {
    expect(unregisteredPaths(["/reviews.json", "/reviews.csv", "/reviews/page/2/"], ASSETS)).toEqual(["/reviews.csv"]);
  });

  it("has every exact row in the build, served with the row's media type", () => {
    const byPath = new Map(manifest().entries.map((entry) => [entry.path, entry.content_type]));
    for (const row of exactRows) expect(byPath.get(row.path), row.path).toBe(row.mediaType);
  });

  it("has a builder for exactly the rows Astro endpoints make", () => {
    expect(Object.keys(DOCUMENT_BUILDERS).sort()).toEqual(ENDPOINT_DOCUMENTS.map((row) => row.path).sort());
  });

  it("is where the OpenAPI document's static paths, the MCP resources and the WebSub topics come from", () => {
    const openapi = buildOpenApiDocument(siteUrls("https://reviews.test"), "Riverbend");
    const documented = PUBLISHED_DOCUMENTS.filter((row) => "openapi" in row).map((row) => row.path);
    for (const path of documented) expect(Object.keys(openapi.paths), path).toContain(path);
    expect(MCP_RESOURCE_DOCUMENTS.map((doc) => doc.path)).toEqual(
      PUBLISHED_DOCUMENTS.filter((row) => "mcpResource" in row).map((row) => row.path),
    );
    expect([...TOPIC_PATHS].sort()).toEqual(["/api/feed.json", "/feed.xml", "/reviews.json"]);
  });

  it("matches the README's endpoint table (npm run docs:endpoints rewrites it)", () => {
    const readme = readFileSync("README.md", "utf8");
    expect(withEndpointTable(readme)).toBe(readme);
  });
});
