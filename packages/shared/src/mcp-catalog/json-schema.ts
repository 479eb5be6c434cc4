import { z } from "zod";

type Json = Record<string, unknown>;

/** Replaces every `$ref` into `$defs` with the definition itself (schemas here are not recursive). */
function inline(node: unknown, defs: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, defs));
  if (node === null || typeof node !== "object") return node;
  const { $ref, ...rest } = node as Json;
  const out: Json = {};
  if (typeof $ref === "string" && $ref.startsWith("#/$defs/")) {
    Object.assign(out, inline(defs[$ref.slice("#/$defs/".length)], defs) as Json);
  }
  for (const [key, value] of Object.entries(rest)) out[key] = inline(value, defs);
  return out;
}

/**
 * JSON Schema of a tool's input or output, self-contained: many MCP clients do not resolve `$ref`,
 * so the shared schemas' named parts are inlined.
 */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $defs, $schema: _dialect, ...root } = z.toJSONSchema(schema, { target: "draft-2020-12", io }) as Json;
  return inline(root, ($defs ?? {}) as Record<string, unknown>) as Json;
}
