import { editDistance } from "@riverbend/shared/schemas/format-issue.ts";

/** A catalogue entry of business.json: a technician, service or service area. */
export interface CatalogueEntry {
  id: string;
  name: string;
}

export type CatalogueMatch =
  | { entry: CatalogueEntry; by: "id" | "name" | "close" }
  | { entry: undefined; suggestion: CatalogueEntry | undefined };

/** Lower case, accents and punctuation dropped, so "Luis O", "luis o." and "LUIS-O" compare equal. */
export function foldName(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/**
 * Finds what an editor meant by `value` among `entries`: the id, the name (in any case and
 * punctuation), a unique first word ("Luis" for "Luis O."), or a name or id within two edits.
 * Several close candidates are never guessed between: the closest is only suggested.
 */
export function matchCatalogue(value: string, entries: readonly CatalogueEntry[]): CatalogueMatch {
  const byId = entries.find((e) => e.id === value);
  if (byId) return { entry: byId, by: "id" };
  const folded = foldName(value);
  if (folded === "") return { entry: undefined, suggestion: undefined };
  const byName = entries.filter((e) => foldName(e.name) === folded || foldName(e.id) === folded);
  if (byName.length === 1 && byName[0]) return { entry: byName[0], by: "name" };
  const byFirstWord = entries.filter((e) => foldName(e.name).split(" ")[0] === folded);
  if (byFirstWord.length === 1 && byFirstWord[0]) return { entry: byFirstWord[0], by: "name" };
  // Within two edits of a name or id; accepted only when one entry is closest ("Chris" could be
  // Chris M. or Chris A.: never a guess, only a suggestion).
  let best = 3;
  let nearest: CatalogueEntry[] = [];
  for (const entry of entries) {
    const distance = Math.min(editDistance(folded, foldName(entry.name)), editDistance(folded, foldName(entry.id)));
    if (distance < best) {
      best = distance;
      nearest = [entry];
    } else if (distance === best && !nearest.includes(entry)) {
      nearest.push(entry);
    }
  }
  if (nearest.length === 1 && nearest[0] && byFirstWord.length === 0) return { entry: nearest[0], by: "close" };
  return { entry: undefined, suggestion: nearest[0] ?? byFirstWord[0] };
}

/** "did you mean ...?" for a value that matched nothing, or an empty string. */
export function didYouMean(match: CatalogueMatch, show: (entry: CatalogueEntry) => string): string {
  return match.entry === undefined && match.suggestion ? `; did you mean ${show(match.suggestion)}?` : "";
}
