import type { BuildManifest } from "@riverbend/shared/schemas/manifest.ts";

/** What a build changed against the one it replaced, as URL paths. */
export interface BuildChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

/** Compares two builds' manifests by content hash; with no previous build every file is added. */
export function buildChanges(before: Pick<BuildManifest, "entries"> | undefined, after: BuildManifest): BuildChanges {
  const old = new Map((before?.entries ?? []).map((e) => [e.path, e.sha256]));
  const now = new Map(after.entries.map((e) => [e.path, e.sha256]));
  const added: string[] = [];
  const changed: string[] = [];
  for (const [path, sha256] of now) {
    const previous = old.get(path);
    if (previous === undefined) added.push(path);
    else if (previous !== sha256) changed.push(path);
  }
  const removed = [...old.keys()].filter((path) => !now.has(path));
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}

function sample(paths: readonly string[], max = 8): string {
  if (paths.length === 0) return "";
  const shown = paths.slice(0, max).join(", ");
  return paths.length > max ? `: ${shown} and ${paths.length - max} more` : `: ${shown}`;
}

/** Lines for the publisher's summary: counts, then which documents changed (a sample when many). */
export function describeBuildChanges(changes: BuildChanges): string[] {
  const { added, changed, removed } = changes;
  if (added.length + changed.length + removed.length === 0) return ["  no document changed"];
  return [
    ...(changed.length > 0 ? [`  ${changed.length} changed${sample(changed)}`] : []),
    ...(added.length > 0 ? [`  ${added.length} added${sample(added)}`] : []),
    ...(removed.length > 0 ? [`  ${removed.length} removed${sample(removed)}`] : []),
  ];
}
