/** The part of package-lock.json (lockfileVersion 3) this check reads. */
export interface Lockfile {
  packages: Record<string, { optionalDependencies?: Record<string, string>; link?: boolean }>;
}

/** Where Node would find `name` from the package at `location`: its own node_modules, then each parent's. */
function resolves(lock: Lockfile, location: string, name: string): boolean {
  let from = location;
  for (;;) {
    const prefix = from === "" ? "" : `${from}/`;
    if (lock.packages[`${prefix}node_modules/${name}`]) return true;
    if (from === "") return false;
    const parent = from.lastIndexOf("/node_modules/");
    from = parent < 0 ? "" : from.slice(0, parent);
  }
}

/**
 * Optional dependencies the lockfile has no entry for, as "package -> dependency". npm records every
 * platform's optional binary (esbuild, Biome, Astro's compiler binding...) in a complete lockfile;
 * one written on Linux without the others makes `npm ci` fail on macOS and Windows, and `npm
 * install` rewrite the file. An empty list means every platform can install from it.
 */
export function missingOptionalEntries(lock: Lockfile): string[] {
  const missing: string[] = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (entry.link) continue;
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      if (!resolves(lock, location, name)) missing.push(`${location || "(root)"} -> ${name}`);
    }
  }
  return missing.sort();
}
