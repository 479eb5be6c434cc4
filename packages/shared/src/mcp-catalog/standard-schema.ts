import type { z } from "zod";
import { InvalidRequestError } from "../search/errors.ts";
import { toIssues } from "../search/search-reviews.ts";
import { toolJsonSchema } from "./json-schema.ts";

type Json = Record<string, unknown>;

/**
 * A zod schema as a Standard Schema with JSON Schema (standardschema.dev: StandardSchemaV1 and
 * StandardJSONSchemaV1), the form MCP SDKs take for tool schemas. Kept rather than zod's own
 * `~standard` so the JSON Schema is self-contained (many MCP clients do not resolve `$ref`), computed
 * once, and validation problems read like the HTTP API's ("min_ratting: is not a parameter"), all
 * of them at once (`parse`: the tool's own check, when it has rules across arguments).
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

/**
 * `trusted`: values are not checked again. For tool outputs: SDKs check every result against its
 * output schema, but these are built by typed code from a build validated at load time (the tests
 * check each tool's results against the published schema), and the check cost a third of a
 * tools/call's CPU (bench:mcp's tool-call target).
 */
export function toolSchema<T extends z.ZodType>(
  schema: T,
  options: { trusted?: boolean; parse?: ((value: unknown) => unknown) | undefined } = {},
): ToolSchema<z.output<T>> {
  const { parse } = options;
  let input: Json | undefined;
  let output: Json | undefined;
  return {
    "~standard": {
      version: 1,
      vendor: "riverbend-reviews",
      validate(value) {
        if (options.trusted) return { value: value as z.output<T> };
        let invalid: InvalidRequestError;
        if (parse) {
          try {
            return { value: parse(value) as z.output<T> };
          } catch (error) {
            if (!(error instanceof InvalidRequestError)) throw error;
            invalid = error;
          }
        } else {
          const result = schema.safeParse(value);
          if (result.success) return { value: result.data };
          invalid = new InvalidRequestError(toIssues(result.error.issues));
        }
        // The listed problems (bounded, as in HTTP answers) and one line counting the rest.
        const issues = invalid.issues.map((issue) => ({ message: issue.message, path: issue.path.split(".") }));
        if (invalid.unlisted > 0) issues.push({ message: `and ${invalid.unlisted} more problems`, path: [] });
        return { issues };
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
