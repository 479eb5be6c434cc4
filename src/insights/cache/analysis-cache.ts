import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Encoded } from "./codec.ts";

/** Bumped when the file layout or the codec changes. */
const FORMAT = 1;

/**
 * The per-review analyses of earlier builds, in one JSON file under `<root>/.cache/insights/`.
 * An entry's key hashes everything the analysis depends on (method, lexicon, rating, text), so a
 * changed review or lexicon simply misses. Saving keeps only the entries of the current build, so
 * the file never outgrows the data set.
 */
export class AnalysisCache {
  readonly file: string;
  private readonly scope: string;
  private readonly previous: Map<string, Encoded>;
  private readonly current = new Map<string, Encoded>();
  private changed = false;

  constructor(root: string, scope: string) {
    this.file = path.join(root, ".cache", "insights", "analyses.json");
    this.scope = scope;
    this.previous = load(this.file, scope);
  }

  key(text: string, rating: number): string {
    return createHash("sha256").update(`${this.scope}\0${rating}\0${text}`).digest("base64url");
  }

  /** Whether `get` would find the entry; unlike `get`, does not keep it for this build. */
  has(key: string): boolean {
    return this.previous.has(key) || this.current.has(key);
  }

  get(key: string): Encoded | undefined {
    const hit = this.previous.get(key) ?? this.current.get(key);
    if (hit) this.current.set(key, hit);
    return hit;
  }

  set(key: string, entry: Encoded): void {
    this.current.set(key, entry);
    this.changed = true;
  }

  /** Writes the entries used by this build, atomically; skips the write when nothing changed. */
  save(): void {
    if (!this.changed && this.current.size === this.previous.size) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(
      temporary,
      JSON.stringify({ format: FORMAT, scope: this.scope, entries: Object.fromEntries(this.current) }),
    );
    renameSync(temporary, this.file);
  }
}

function load(file: string, scope: string): Map<string, Encoded> {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { format?: number; scope?: string; entries?: object };
    if (parsed.format !== FORMAT || parsed.scope !== scope || !parsed.entries) return new Map();
    return new Map(Object.entries(parsed.entries) as [string, Encoded][]);
  } catch {
    // A missing or damaged cache only costs time: everything is analysed again.
    return new Map();
  }
}
