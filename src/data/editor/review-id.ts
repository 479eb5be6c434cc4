import { foldName } from "../catalogue-match.ts";

/**
 * A new review's id: its date and the author's name, `2025-03-02-maria-g`, with `-2`, `-3`... when
 * taken. `taken` must hold every id in use or ever used (removed reviews' ids are never reused).
 */
export function deriveReviewId(date: string, author: string, taken: ReadonlySet<string>): string {
  const name = foldName(author).replace(/ /g, "-").slice(0, 60).replace(/-+$/, "") || "review";
  const base = `${date}-${name}`;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }
}
