/**
 * The built openapi.json: it passes Redocly's OpenAPI linter (recommended ruleset), describes every
 * endpoint, its component schemas are the ones zod generates, and the real built documents validate
 * against those component schemas (Ajv, JSON Schema 2020-12, the OpenAPI 3.1 dialect's default).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";
import { ReviewSchema } from "@riverbend/shared/schemas/review.ts";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";

const dist = inject("sampleDist");
const openapiFile = path.join(dist, "openapi.json");

interface OpenApiDocument {
  openapi: string;
  info: { version: string; title: string };
  security?: unknown[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

let source: string;
let doc: OpenApiDocument;
beforeAll(async () => {
  source = await readFile(openapiFile, "utf8");
  doc = JSON.parse(source) as OpenApiDocument;
});

// ---------------------------------------------------------------------------
// Redocly lint
// ---------------------------------------------------------------------------

/**
 * Warnings of the recommended ruleset that are accepted, and why. Any other warning fails the test.
 * (Errors are never accepted, apart from the known src/ bug below.)
 */
const ALLOWED_WARNINGS: Record<string, string> = {
  "operation-4xx-response":
    "the static documents (/reviews.json, /insights.json, the feeds, /openapi.json) are files on a CDN: " +
    "they have no request input to reject, so 200 and 304 are their only documented responses",
  "operation-operationId":
    "the static document GETs carry no operationId; ids are only needed by code generators, " +
    "and the sidecar operations (search, since, mcp, hub) have them",
  "no-unused-components":
    "components are generated from every schema in zod's registry (e.g. BuildManifest, SearchParams, whose " +
    "fields are expanded into query parameters), so some are published without being referenced by a path",
};

function describeProblem(problem: NormalizedProblem): string {
  const where = problem.location.map((loc) => ("pointer" in loc ? loc.pointer : "")).join(", ");
  return `${problem.severity} ${problem.ruleId} at ${where}: ${problem.message}`;
}

describe("openapi.json lint (@redocly/openapi-core, recommended ruleset)", () => {
  let problems: NormalizedProblem[];
  beforeAll(async () => {
    const config = await createConfig({ extends: ["recommended"] });
    problems = await lintFromString({ source, absoluteRef: openapiFile, config });
  });

  it("has no errors", () => {
    const errors = problems.filter((p) => p.severity === "error");
    expect(errors.map(describeProblem)).toEqual([]);
  });

  it("has no warnings other than the allowed ones", () => {
    const warnings = problems.filter((p) => p.severity === "warn" && !(p.ruleId in ALLOWED_WARNINGS));
    expect(warnings.map(describeProblem)).toEqual([]);
  });

  it("declares that no security is needed (root `security: []`), so security-defined passes", () => {
    expect(doc.security).toEqual([]);
    expect(problems.filter((p) => p.ruleId === "security-defined").map(describeProblem)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// Content
// ---------------------------------------------------------------------------

describe("openapi.json content", () => {
  it("is OpenAPI 3.1.0, API version 1.0.0", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
  });

  it("describes every endpoint of the service, with the right method", () => {
    const expected: Record<string, string> = {
      "/reviews.json": "get",
      "/insights.json": "get",
      "/api/feed.json": "get",
      "/feed.xml": "get",
      "/openapi.json": "get",
      "/api/reviews/search": "get",
      "/api/reviews/since/{date}": "get",
      "/mcp": "post",
      "/api/websub/hub": "post",
    };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(Object.keys(expected)));
    for (const [route, method] of Object.entries(expected)) {
      expect(doc.paths[route], route).toHaveProperty(method);
    }
  });

  it("components.schemas.Review is generated from ReviewSchema by zod, not hand-written", () => {
    // zod names the registered sub-schemas (IsoDate, Rating, ReviewAuthor, ...) under $defs; the OpenAPI
    // document puts them under components.schemas, so rewrite the refs before comparing.
    const generated = JSON.parse(
      JSON.stringify(z.toJSONSchema(ReviewSchema, { target: "draft-2020-12" })).replaceAll(
        '"#/$defs/',
        '"#/components/schemas/',
      ),
    ) as { $defs?: Record<string, Record<string, unknown>> } & Record<string, unknown>;
    const review = generated.$defs?.Review ?? generated;
    const component = doc.components.schemas.Review;
    expect(component).toBeDefined();
    expect(component?.properties).toEqual(review.properties);
    expect(component?.required).toEqual(review.required);
    expect(component?.additionalProperties).toEqual(review.additionalProperties);
    // Every schema Review refers to is published with the same definition.
    for (const [id, schema] of Object.entries(generated.$defs ?? {})) {
      expect(doc.components.schemas[id], id).toEqual(schema);
    }
  });
});

// ---------------------------------------------------------------------------
// The component schemas against the real documents (Ajv 2020)
// ---------------------------------------------------------------------------

describe("built documents validate against the OpenAPI component schemas (Ajv 2020-12)", () => {
  const DOC_ID = "https://reviews.test/openapi.json";
  type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
  // ajv-formats is CommonJS with `exports.default`: the default import is the plugin or the namespace.
  const addFormats: FormatsPlugin =
    (addFormatsPlugin as unknown as { default?: FormatsPlugin }).default ??
    (addFormatsPlugin as unknown as FormatsPlugin);

  let ajv: Ajv2020;
  beforeAll(() => {
    // Strict mode stays on for the schemas themselves; the OpenAPI document's own top-level fields are
    // declared as (inert) keywords so the whole document can be added as one schema with an $id.
    ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    ajv.addVocabulary(["openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components"]);
    ajv.addVocabulary(["security", "tags", "externalDocs"]);
    ajv.addSchema({ ...doc, $id: DOC_ID });
  });

  const validate = async (component: string, file: string) => {
    const check = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/${component}` });
    const data: unknown = JSON.parse(await readFile(path.join(dist, file), "utf8"));
    check(data);
    return (check.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? e.keyword}`);
  };

  it("reviews.json matches components.schemas.ReviewsDocument", async () => {
    expect(await validate("ReviewsDocument", "reviews.json")).toEqual([]);
  });

  it("api/feed.json matches components.schemas.JsonFeed", async () => {
    expect(await validate("JsonFeed", path.join("api", "feed.json"))).toEqual([]);
  });

  it("insights.json matches components.schemas.InsightsDocument", async () => {
    expect(await validate("InsightsDocument", "insights.json")).toEqual([]);
  });

  it("the schemas can fail: a review with rating 6 and an extra field is rejected", async () => {
    const check = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/ReviewsDocument` });
    const data = JSON.parse(await readFile(path.join(dist, "reviews.json"), "utf8")) as {
      reviews: Record<string, unknown>[];
    };
    data.reviews[0] = { ...data.reviews[0], rating: 6, stars: 6 };
    expect(check(data)).toBe(false);
    const errors = (check.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
    expect(errors).toEqual(expect.arrayContaining(["/reviews/0/rating maximum", "/reviews/0 additionalProperties"]));
  });
});
