import { PUBLISHED_DOCUMENTS, SERVER_ENDPOINTS } from "./documents.ts";

export const TABLE_START =
  "<!-- endpoint table: generated from packages/shared/src/registry/documents.ts by npm run docs:endpoints -->";
export const TABLE_END = "<!-- end of endpoint table -->";

const cell = (text: string) => text.replaceAll("|", "\\|");

/** A Markdown table with its columns padded, as the formatter (Biome) writes it. */
function markdownTable(rows: readonly string[][]): string {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(3, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (row: readonly string[]) =>
    `| ${row.map((text, column) => text.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  const [head = [], ...body] = rows;
  return [line(head), line(widths.map((width) => "-".repeat(width))), ...body.map(line)].join("\n");
}

/** The README's endpoint table: every published document and server endpoint, from the registry. */
export function endpointTable(): string {
  return markdownTable([
    ["Path", "Served by", "Type", "What it is"],
    ...PUBLISHED_DOCUMENTS.map((row) => [
      `\`${row.path}\``,
      row.topic ? "static, WebSub topic" : "static",
      cell(row.mediaType.split(";")[0] ?? ""),
      cell(row.description),
    ]),
    ...SERVER_ENDPOINTS.map((row) => [`\`${row.method} ${row.path}\``, "sidecar", "", cell(row.description)]),
  ]);
}

/** `text` with the part between the markers replaced by the current table. */
export function withEndpointTable(text: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no "${TABLE_START}" ... "${TABLE_END}" markers`);
  return `${text.slice(0, start + TABLE_START.length)}\n${endpointTable()}\n${text.slice(end)}`;
}
