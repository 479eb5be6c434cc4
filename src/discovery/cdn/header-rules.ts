import { EVERY_FILE_HEADERS, fileHeaders } from "@riverbend/shared/registry/static-headers.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";

/** One block of a `_headers` file: a path or a `prefix*` pattern, and the headers it sets. */
export interface HeaderRule {
  pattern: string;
  headers: Record<string, string>;
}

export interface PublishedFile {
  path: string;
  content_type: string;
}

interface Item {
  path: string;
  headers: Record<string, string>;
  key: string;
}

function specificHeaders(file: PublishedFile, urls: SiteUrls): Record<string, string> {
  const headers = fileHeaders(file.path, file.content_type, urls);
  for (const name of Object.keys(EVERY_FILE_HEADERS)) delete headers[name];
  return headers;
}

/** Collapses every folder whose files all get the same headers into one `folder/*` rule. */
function folderRules(prefix: string, items: readonly Item[], rules: HeaderRule[]): void {
  if (prefix !== "/" && items.every((item) => item.key === items[0]?.key)) {
    rules.push({ pattern: `${prefix}*`, headers: items[0]?.headers ?? {} });
    return;
  }
  const children = new Map<string, Item[]>();
  for (const item of items) {
    const rest = item.path.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) {
      rules.push({ pattern: item.path, headers: item.headers });
      continue;
    }
    const child = `${prefix}${rest.slice(0, slash + 1)}`;
    // Push in place: copying the array per file would make the rules quadratic in the page count.
    const siblings = children.get(child);
    if (siblings) siblings.push(item);
    else children.set(child, [item]);
  }
  for (const child of [...children.keys()].sort()) folderRules(child, children.get(child) ?? [], rules);
}

/**
 * The rules a CDN needs to send every file's headers (validators aside): `/*` with the headers all
 * files share, then rules that never overlap for the same header. Cloudflare Pages joins a header
 * set by two matching rules and Netlify keeps one of them; with no overlap both read the file alike.
 * Folders collapse, so 100k review pages need one `/reviews/*` rule (Cloudflare allows 100 rules).
 */
export function headerRules(files: readonly PublishedFile[], urls: SiteUrls): HeaderRule[] {
  const items = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((file) => {
      const headers = specificHeaders(file, urls);
      return { path: file.path, headers, key: JSON.stringify(headers) };
    });
  const rules: HeaderRule[] = [{ pattern: "/*", headers: { ...EVERY_FILE_HEADERS } }];
  // The home page is the folder "/" itself; it gets an exact rule like any other file at the root.
  folderRules("/", items, rules);
  return rules;
}
