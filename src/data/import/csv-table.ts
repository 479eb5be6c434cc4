import { parse } from "csv-parse/sync";

/** One data row of a CSV file: its first line number and its values by (normalised) column. */
export interface CsvRow {
  line: number;
  values: ReadonlyMap<string, string>;
}

/** "Review Date", "review_date" and "REVIEW-DATE" are the same column: `review_date`. */
export function columnKey(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

/**
 * Reads a CSV file's text (UTF-8, with or without a byte-order mark, quoted fields over several
 * lines, CRLF or LF) into rows keyed by column. `aliases` maps accepted header names to the
 * canonical one; headers it does not know are returned in `ignored`.
 */
export function readCsv(
  text: string,
  aliases: ReadonlyMap<string, string>,
): { rows: CsvRow[]; ignored: string[]; columns: string[] } {
  // csv-parse counts a quoted CRLF as two lines; with LF only, its line numbers are the file's.
  // The line each record ends on, from the documented per-record context.
  const endLines: number[] = [];
  const records = parse(text.replace(/\r\n?/g, "\n"), {
    bom: true,
    delimiter: delimiterOf(text),
    skip_empty_lines: true,
    relax_column_count: true,
    trim: false,
    on_record: (record: string[], context) => {
      endLines.push(context.lines);
      return record;
    },
  });
  const [header, ...data] = records;
  if (!header) return { rows: [], ignored: [], columns: [] };
  const columns = header.map((name) => aliases.get(columnKey(name)));
  const ignored = header.filter((name, i) => columns[i] === undefined && name.trim() !== "");
  const rows = data.map((record, index) => {
    const breaks = record.reduce((sum, value) => sum + (value.match(/\n/g)?.length ?? 0), 0);
    const values = new Map<string, string>();
    record.forEach((value, i) => {
      const column = columns[i];
      const trimmed = value.trim();
      if (column && trimmed !== "" && !values.has(column)) values.set(column, trimmed);
    });
    return { line: (endLines[index + 1] ?? 0) - breaks, values };
  });
  // Spreadsheets save rows of empty cells (",,,,") below the data: they are no rows at all.
  const filled = rows.filter((row) => row.values.size > 0);
  return { rows: filled, ignored, columns: columns.filter((c): c is string => c !== undefined) };
}

/**
 * The delimiter of the header line: comma, or the semicolon spreadsheets write where the comma is
 * the decimal separator, or a tab. The header holds no free text, so counting is enough.
 */
export function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const count = (c: string) => header.split(c).length - 1;
  return [";", "\t"].find((c) => count(c) > count(",")) ?? ",";
}

/** Builds the alias map from canonical column names and the other names each accepts. */
export function aliasMap(columns: Record<string, readonly string[]>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [canonical, others] of Object.entries(columns)) {
    for (const name of [canonical, ...others]) map.set(columnKey(name), canonical);
  }
  return map;
}

/** Splits a list cell: "Luis O.; Chris M." or "drain-cleaning, sewer-line-repair". */
export function splitList(cell: string | undefined): string[] {
  if (!cell) return [];
  return cell
    .split(/[;,|\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}
