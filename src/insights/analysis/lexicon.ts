import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { AspectId } from "@riverbend/shared/schemas/analysis.ts";
import {
  AspectLexiconSchema,
  IdiomLexiconSchema,
  type Lexicon,
  ScorerSettingsSchema,
  ValenceLexiconSchema,
} from "@riverbend/shared/schemas/lexicon.ts";

/** Version of the analysis method (code: clause reading and quote gates); the lexicon files and the model carry their own. */
export const METHOD_VERSION = "aspect-method/2.5.1";

export const DEFAULT_LEXICON_DIR = "data/insights/lexicon";

const FILES = {
  aspects: ["aspects.json", AspectLexiconSchema],
  valence: ["valence.json", ValenceLexiconSchema],
  idioms: ["idioms.json", IdiomLexiconSchema],
  settings: ["settings.json", ScorerSettingsSchema],
} as const;

export class LexiconError extends Error {
  override name = "LexiconError";
}

/** JSON with object keys sorted, so the hash ignores formatting and key order but nothing else. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function lexiconHash(lexicon: Lexicon): string {
  const hash = createHash("sha256");
  for (const key of Object.keys(FILES).sort()) {
    hash.update(`${key}\n${canonical(lexicon[key as keyof Lexicon])}\n`);
  }
  return hash.digest("hex");
}

function readPart<K extends keyof typeof FILES>(dir: string, key: K): Lexicon[K] {
  const [file, schema] = FILES[key];
  const full = path.join(dir, file);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(full, "utf8"));
  } catch (error) {
    throw new LexiconError(`${full}: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`).join("\n");
    throw new LexiconError(`${full} is not a valid lexicon file:\n${issues}`);
  }
  return parsed.data as Lexicon[K];
}

/** Checks a regular expression can compile, so a bad rule fails at load time rather than mid-build. */
function checkRules(lexicon: Lexicon, dir: string) {
  for (const rule of lexicon.idioms.rules) {
    try {
      new RegExp(rule.regex, "u");
    } catch (error) {
      throw new LexiconError(`${path.join(dir, "idioms.json")}: rule ${rule.id}: ${(error as Error).message}`);
    }
  }
  const seen = new Map<string, AspectId>();
  for (const [aspect, cues] of Object.entries(lexicon.aspects.aspects) as [AspectId, Record<string, number>][]) {
    for (const cue of Object.keys(cues)) {
      const other = seen.get(cue);
      if (other) throw new LexiconError(`aspects.json: cue "${cue}" is listed under both ${other} and ${aspect}`);
      seen.set(cue, aspect);
    }
  }
}

export interface LoadedLexicon {
  lexicon: Lexicon;
  hash: string;
  /** The versions of the four files, "aspects@x+valence@y+…" in file order. */
  version: string;
}

export function loadLexicon(dir: string = DEFAULT_LEXICON_DIR): LoadedLexicon {
  const lexicon: Lexicon = {
    aspects: readPart(dir, "aspects"),
    valence: readPart(dir, "valence"),
    idioms: readPart(dir, "idioms"),
    settings: readPart(dir, "settings"),
  };
  checkRules(lexicon, dir);
  const version = (Object.keys(FILES) as (keyof Lexicon)[]).map((k) => `${k}@${lexicon[k].version}`).join("+");
  return { lexicon, hash: lexiconHash(lexicon), version };
}
