import { z } from "zod";

type AnySchema = z.core.$ZodType;

/** Field names allowed by the object schema found at `path` inside `schema` (empty if none). */
export function fieldsAt(schema: AnySchema, path: readonly PropertyKey[]): string[] {
  let current: AnySchema | undefined = schema;
  for (const key of path) {
    current = unwrap(current);
    if (current instanceof z.ZodArray) current = current.element;
    else if (current instanceof z.ZodObject) current = current.shape[String(key)];
    else return [];
  }
  const target = unwrap(current);
  return target instanceof z.ZodObject ? Object.keys(target.shape) : [];
}

function unwrap(schema: AnySchema | undefined): AnySchema | undefined {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
      current = current.unwrap();
    } else if (current instanceof z.ZodPipe) {
      current = current.in;
    } else {
      return current;
    }
  }
}
