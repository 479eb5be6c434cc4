import type { z } from "zod";

type AnySchema = z.core.$ZodType;

/** Field names allowed by the object schema found at `path` inside `schema` (empty if none). */
export function fieldsAt(schema: AnySchema, path: readonly PropertyKey[]): string[] {
  let current: AnySchema | undefined = schema;
  for (const key of path) {
    current = unwrap(current);
    if (!current) return [];
    const def = current._zod.def as unknown as Record<string, unknown>;
    if (def.type === "array") current = def.element as AnySchema;
    else if (def.type === "object") current = (def.shape as Record<string, AnySchema>)[String(key)];
    else return [];
  }
  const target = unwrap(current);
  const def = target?._zod.def as unknown as Record<string, unknown> | undefined;
  return def?.type === "object" ? Object.keys(def.shape as object) : [];
}

function unwrap(schema: AnySchema | undefined): AnySchema | undefined {
  let current = schema;
  for (;;) {
    const def = current?._zod.def as unknown as Record<string, unknown> | undefined;
    if (!def) return current;
    if (def.type === "optional" || def.type === "nullable" || def.type === "default") {
      current = def.innerType as AnySchema;
    } else if (def.type === "pipe") {
      current = def.in as AnySchema;
    } else {
      return current;
    }
  }
}
