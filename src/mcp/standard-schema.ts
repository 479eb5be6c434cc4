import type { z } from "zod";
import { toIssues } from "../search/search-reviews.ts";
import { toolJsonSchema } from "./json-schema.ts";

type Json = Record<string, unknown>;

/**
 * A zod schema as a Standard Schema with JSON Schema (standardschema.dev: StandardSchemaV1 and
 * StandardJSONSchemaV1), the form MCP SDKs take for tool schemas. Kept rather than zod's own
 * `~standard` so the JSON Schema is self-contained (many MCP clients do not resolve `$ref`), computed
 * once, and validation problems read like the HTTP API's ("min_ratting: is not a parameter").
 */
export interface ToolSchema<Output> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): { value: Output; issues?: undefined } | { issues: { message: string; path: string[] }[] };
    readonly jsonSchema: { input(options?: unknown): Json; output(options?: unknown): Json };
    readonly types?: { readonly input: unknown; readonly output: Output };
  };
}

export function toolSchema<T extends z.ZodType>(schema: T): ToolSchema<z.output<T>> {
  let input: Json | undefined;
  let output: Json | undefined;
  return {
    "~standard": {
      version: 1,
      vendor: "riverbend-reviews",
      validate(value) {
        const result = schema.safeParse(value);
        if (result.success) return { value: result.data };
        return {
          issues: toIssues(result.error.issues).map((issue) => ({
            message: issue.message,
            path: issue.path.split("."),
          })),
        };
      },
      jsonSchema: {
        input: () => {
          input ??= toolJsonSchema(schema, "input");
          return input;
        },
        output: () => {
          output ??= toolJsonSchema(schema, "output");
          return output;
        },
      },
    },
  };
}
