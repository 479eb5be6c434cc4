/**
 * One review read from an import file, before it is checked against the catalogue and the data
 * folder. `where` locates it in the file for the report ("line 7", "review AbC123").
 */
export interface ImportCandidate {
  where: string;
  source: string;
  sourceId: string;
  date: string;
  rating: number;
  author: string;
  title?: string | undefined;
  text?: string | undefined;
  locality?: string | undefined;
  technicians: string[];
  services: string[];
  area?: string | undefined;
  method?: string | undefined;
  reference?: string | undefined;
  response?: { date: string; text: string } | undefined;
  updated?: string | undefined;
}

/** A row that cannot become a review at all, with the reason for the report. */
export interface RefusedRow {
  where: string;
  reason: string;
}

export type ReadResult = { candidates: ImportCandidate[]; refused: RefusedRow[]; notes: string[] };

/** A rating written as 5, "5", "4.0", "5 stars", "★★★★★" or the Business Profile's "FIVE". */
export function parseRating(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim().toUpperCase();
  const words = ["ONE", "TWO", "THREE", "FOUR", "FIVE"];
  const word = words.indexOf(text.replace(/_STARS?$/, ""));
  if (word >= 0) return word + 1;
  if (/^★+☆*$/.test(text)) return text.replace(/☆/g, "").length;
  const number = /^([1-5])(\.0+)?(\s*(\/\s*5|STARS?|OF 5))?$/.exec(text);
  return number ? Number(number[1]) : undefined;
}
