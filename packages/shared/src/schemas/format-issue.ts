import type { z } from "zod";

/** Renders a path such as ["author", "name"] or ["technicians", 0] as `author.name` / `technicians[0]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

/** The candidate within two edits of `word`, to suggest for a typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j] ?? 0;
      row[j] = Math.min(saved + 1, (row[j - 1] ?? 0) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length] ?? 0;
}

/** A field-level problem, phrased for the editor who has to fix it. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Turns zod issues into one problem per field: what is wrong, what was given, and how to fix it.
 * `knownFields` lists allowed keys per object path so a typo can be answered with a suggestion.
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  knownFields: (path: readonly PropertyKey[]) => readonly string[],
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      const allowed = knownFields(issue.path);
      for (const key of issue.keys) {
        const suggestion = closest(key, allowed);
        problems.push({
          field: formatPath([...issue.path, key]),
          message: suggestion
            ? `unknown field; did you mean "${suggestion}"?`
            : `unknown field; allowed fields are ${allowed.join(", ")}`,
        });
      }
      continue;
    }
    const value = valueAt(input, issue.path);
    const message =
      value === undefined && issue.code === "invalid_type"
        ? `is required: add it (${issue.message})`
        : `${issue.message}, got ${describeValue(value)}`;
    problems.push({ field: formatPath(issue.path) || "(file)", message });
  }
  return problems;
}
