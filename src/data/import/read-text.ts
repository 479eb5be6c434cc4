import { readFileSync } from "node:fs";

/**
 * The text of an import file: UTF-8 (with or without a byte-order mark), or UTF-16 with its
 * byte-order mark (Excel's "Unicode Text"). Any other encoding is refused rather than read with
 * replacement characters in names and text: Excel's plain "CSV (Comma delimited)" writes
 * Windows-1252, which is not UTF-8 as soon as a name has an accent.
 */
export function readImportText(file: string): { text: string } | { problem: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      problem: `cannot be read: ${code === "ENOENT" ? "file not found" : code === "EISDIR" ? "it is a folder" : String(error)}`,
    };
  }
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? "utf-16le"
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? "utf-16be"
        : undefined;
  try {
    return { text: new TextDecoder(utf16 ?? "utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return {
      problem:
        'is not UTF-8 text; in Excel save it with "CSV UTF-8 (Comma delimited)", elsewhere choose the UTF-8 encoding',
    };
  }
}
