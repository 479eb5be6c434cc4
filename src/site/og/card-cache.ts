import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { FONTS, renderPng } from "./render-png.ts";

/** What else than the SVG fixes a card's bytes: the renderer's version and the font files. */
function rendererKey(): string {
  const hash = createHash("sha256");
  const { version } = createRequire(import.meta.url)("@resvg/resvg-js/package.json") as { version: string };
  hash.update(version);
  for (const file of FONTS) hash.update(readFileSync(file));
  return hash.digest("hex");
}

export interface CardCache {
  /** The PNG of an SVG card: from the cache when rendered before, else rendered and kept. */
  png(svg: string): Buffer;
  rendered: number;
  reused: number;
  /** Past `keep` cards in the folder, removes those this cache has not been asked for. */
  prune(keep: number): void;
}

/**
 * Cards kept across builds in `dir`, named by the hash of what fixes their bytes (the SVG, resvg's
 * version, the fonts): a build renders only the cards of new or changed reviews. The bytes are the
 * renderer's either way, so a build with or without the cache writes the same files.
 */
export function cardCache(dir: string): CardCache {
  const key = rendererKey();
  mkdirSync(dir, { recursive: true });
  const used = new Set<string>();
  const cache: CardCache = {
    rendered: 0,
    reused: 0,
    prune(keep) {
      // Only past a bound: builds of other data at the same time (tests) would otherwise remove each
      // other's cards and render them again. A card another build is about to read may still go:
      // that build then renders it again.
      const names = readdirSync(dir);
      if (names.length <= keep) return;
      for (const name of names) if (!used.has(name)) rmSync(path.join(dir, name), { force: true });
    },
    png(svg) {
      const name = `${createHash("sha256").update(key).update(svg).digest("hex")}.png`;
      used.add(name);
      const file = path.join(dir, name);
      try {
        const kept = readFileSync(file);
        cache.reused++;
        return kept;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
      const png = renderPng(svg);
      // Written aside then renamed: a build stopped halfway never leaves half a card to reuse.
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, png);
      renameSync(partial, file);
      cache.rendered++;
      return png;
    },
  };
  return cache;
}
