const CONTENT_TYPE = Buffer.from('"content_type"');
const ENTRIES = Buffer.from('"entries"');
const OPEN = "{".charCodeAt(0);
const CLOSE = "}".charCodeAt(0);
const QUOTE = '"'.charCodeAt(0);
const BLANK = new Set([" ", "\n", "\r", "\t", ":"].map((c) => c.charCodeAt(0)));

/**
 * The manifest with only the entries whose content type `keep` accepts, found without parsing the
 * rest: at 100k reviews the manifest is 39 MB, nearly all of it page entries the sidecar drops when
 * it serves no pages, and parsing it whole cost a tenth of a second and 90 MB of garbage.
 *
 * It relies on the build's layout (flat entry objects, "entries" the last key) and checks it: any
 * surprise returns undefined, and the caller parses the file whole. Kept entries are validated by
 * the caller like any others.
 */
export function scanManifest(bytes: Buffer, keep: (contentType: string) => boolean): unknown {
  const entriesAt = bytes.indexOf(ENTRIES);
  const bracket = entriesAt < 0 ? -1 : bytes.indexOf("[", entriesAt);
  if (bracket < 0 || !/\]\s*\}\s*$/.test(bytes.subarray(-16).toString("latin1"))) return undefined;
  try {
    const head = JSON.parse(`${bytes.subarray(0, entriesAt).toString("utf8")}"entries":[]}`) as object;
    const entries: unknown[] = [];
    let at = bytes.indexOf(CONTENT_TYPE, bracket);
    while (at >= 0) {
      let value = at + CONTENT_TYPE.length;
      while (BLANK.has(bytes[value] ?? 0)) value++;
      if (bytes[value] !== QUOTE) return undefined;
      const end = bytes.indexOf(QUOTE, value + 1);
      if (end < 0) return undefined;
      if (keep(bytes.subarray(value + 1, end).toString("utf8"))) {
        const open = bytes.lastIndexOf(OPEN, at);
        const close = bytes.indexOf(CLOSE, end);
        if (open < bracket || close < 0) return undefined;
        entries.push(JSON.parse(bytes.subarray(open, close + 1).toString("utf8")));
      }
      at = bytes.indexOf(CONTENT_TYPE, end);
    }
    return { ...head, entries };
  } catch {
    return undefined;
  }
}
