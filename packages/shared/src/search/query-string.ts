import type { ValidationIssue } from "../schemas/errors.ts";
import { closest } from "../schemas/format-issue.ts";
import { InvalidRequestError } from "./errors.ts";

const NUMERIC = new Set(["rating", "min_rating", "limit"]);
const BOOLEAN = new Set(["facets"]);
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
/** Parameters read from one query string; the rest are refused unread (each costs a lookup and a suggestion). */
export const MAX_QUERY_PARAMETERS = 32;

/** One `name=value` of a raw query string, percent-decoded ("+" is a space); undefined if malformed. */
function decodePart(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replaceAll("+", " "));
  } catch {
    return undefined;
  }
}

/**
 * Decodes a raw query string (without "?") into typed arguments for the parameters in `known`.
 * Malformed percent-encoding (a lone `%`, bytes that are not UTF-8), unknown, repeated and empty
 * parameters are errors: a typo such as `min_ratting` must not silently return everything.
 */
export function decodeQuery(
  raw: string,
  known: readonly string[],
): { args: Record<string, unknown>; issues: ValidationIssue[] } {
  const args: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const parts = raw.split("&", MAX_QUERY_PARAMETERS + 1);
  if (parts.length > MAX_QUERY_PARAMETERS) {
    parts.length = MAX_QUERY_PARAMETERS;
    issues.push({
      path: "(query string)",
      code: "too_many_parameters",
      message: `has more than ${MAX_QUERY_PARAMETERS} parameters; the rest were not read`,
    });
  }
  for (const part of parts) {
    if (part === "") continue;
    const equals = part.indexOf("=");
    const name = decodePart(equals < 0 ? part : part.slice(0, equals));
    const value = decodePart(equals < 0 ? "" : part.slice(equals + 1));
    if (name === undefined || value === undefined) {
      issues.push({
        path: name ?? "(query string)",
        code: "invalid_encoding",
        message: `"${part.slice(0, 60)}" is not valid percent-encoding (write % as %25)`,
      });
      continue;
    }
    if (!known.includes(name)) {
      if (seen.has(name)) continue;
      seen.add(name);
      // A long name is no typo of a short one, and comparing it would cost its length times each name's.
      const suggestion = name && name.length <= 40 ? closest(name, known) : undefined;
      issues.push({
        path: name || "(empty name)",
        code: "unrecognized",
        message: suggestion
          ? `is not a parameter; did you mean ${suggestion}?`
          : `is not a parameter; use ${known.join(", ")}`,
      });
      continue;
    }
    if (seen.has(name)) {
      if (!issues.some((i) => i.path === name && i.code === "duplicate")) {
        issues.push({ path: name, code: "duplicate", message: "is given more than once; give it once" });
      }
      delete args[name];
      continue;
    }
    seen.add(name);
    if (value === "") {
      issues.push({ path: name, code: "empty", message: "is empty; give a value or leave the parameter out" });
      continue;
    }
    if (BOOLEAN.has(name)) args[name] = value === "true" ? true : value === "false" ? false : value;
    else args[name] = NUMERIC.has(name) && NUMBER.test(value) ? Number(value) : value;
  }
  return { args, issues };
}

/** Runs `prepare` on decoded arguments, reporting decoding and validation problems together. */
export function prepareFromQuery<T>(
  raw: string,
  known: readonly string[],
  prepare: (args: unknown) => T,
  extra = {},
): T {
  const { args, issues } = decodeQuery(raw, known);
  let unlisted = 0;
  try {
    const prepared = prepare({ ...args, ...extra });
    if (issues.length === 0) return prepared;
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    const reported = new Set(issues.map((issue) => issue.path));
    issues.push(...error.issues.filter((issue) => !reported.has(issue.path)));
    unlisted = error.unlisted;
  }
  throw new InvalidRequestError(issues, unlisted);
}
