/**
 * A small same-origin link checker for the built site: starts from the sitemap and the discovery
 * documents, follows the links found in pages and documents, and fetches each URL once.
 */

export interface CrawlResult {
  /** Every URL path fetched (path + query), with its status and content type. */
  fetched: Map<string, { status: number; type: string; from: string }>;
  /** Same-page fragment links (#id) whose target id is missing: "page -> #id". */
  brokenFragments: string[];
}

export interface CrawlOptions {
  /** Where the server listens, e.g. http://127.0.0.1:1234. */
  base: string;
  /** Origins whose links count as this site's, e.g. the build's SITE_URL (https://reviews.test). */
  siteOrigins: readonly string[];
  /** Paths to start from besides those the sitemap lists. */
  seeds: readonly string[];
  /** Paths never fetched with GET (POST-only endpoints such as /mcp). */
  skip?: readonly string[];
  /** Stops with an error past this many URLs, so a link loop cannot run away. */
  limit?: number;
  concurrency?: number;
}

const decode = (text: string) =>
  text
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

/** Every link-like reference in a response body, by content type. */
export function extractLinks(body: string, type: string): string[] {
  if (type.includes("html")) {
    return [...body.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => decode(m[1] as string));
  }
  if (type.includes("xml")) {
    return [
      ...[...body.matchAll(/\shref="([^"]*)"/g)].map((m) => decode(m[1] as string)),
      ...[...body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => decode(m[1] as string)),
    ];
  }
  if (type.includes("json")) {
    const found: string[] = [];
    const walk = (value: unknown) => {
      if (typeof value === "string") {
        if (/^(https?:\/\/|\/)[^\s]*$/.test(value) && !value.startsWith("//")) found.push(value);
      } else if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object") Object.values(value).forEach(walk);
    };
    try {
      walk(JSON.parse(body));
    } catch {
      // Not JSON after all: no links.
    }
    return found;
  }
  if (type.includes("text/plain") || type.includes("markdown")) {
    // Markdown links, and bare URLs without the punctuation of the sentence around them.
    return [...body.matchAll(/\]\(([^)\s]+)\)|(https?:\/\/[^\s)>]+)/g)].map(
      (m) => (m[1] ?? (m[2] as string).replace(/[.,;:!?'"]+$/, "")) as string,
    );
  }
  return [];
}

/** The path + query of a link on this site, or undefined for another site or a non-HTTP link. */
export function sitePath(
  link: string,
  from: string,
  options: Pick<CrawlOptions, "base" | "siteOrigins">,
): string | undefined {
  if (/^(mailto|tel|data|javascript):/i.test(link)) return undefined;
  let url: URL;
  try {
    url = new URL(link, new URL(from, options.base));
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(options.base).origin && !options.siteOrigins.includes(url.origin)) return undefined;
  return `${url.pathname}${url.search}`;
}

/** Fetches the sitemap (an index and its children too) and returns the paths it lists. */
export async function sitemapPaths(options: Pick<CrawlOptions, "base" | "siteOrigins">): Promise<string[]> {
  const paths: string[] = [];
  const queue = ["/sitemap.xml"];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const response = await fetch(new URL(next, options.base));
    if (!response.ok) throw new Error(`${next}: ${response.status}`);
    const xml = await response.text();
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => sitePath(decode(m[1] as string), next, options));
    for (const path of locs) {
      if (!path) continue;
      if (xml.includes("<sitemapindex")) queue.push(path);
      else paths.push(path);
    }
  }
  return paths;
}

export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  const { base, seeds, skip = [], limit = 5000, concurrency = 8 } = options;
  const fetched: CrawlResult["fetched"] = new Map();
  const brokenFragments: string[] = [];
  const seen = new Set<string>();
  const queue: { path: string; from: string }[] = [];
  const add = (path: string, from: string) => {
    if (seen.has(path) || skip.includes(path.split("?")[0] as string)) return;
    if (seen.size >= limit) throw new Error(`more than ${limit} URLs: is there a link loop? (${path} from ${from})`);
    seen.add(path);
    queue.push({ path, from });
  };
  for (const seed of seeds) add(seed, "(seed)");

  async function visit({ path, from }: { path: string; from: string }) {
    const response = await fetch(new URL(path, base), { redirect: "manual" });
    const type = response.headers.get("content-type") ?? "";
    const body = await response.text();
    fetched.set(path, { status: response.status, type, from });
    if (response.status !== 200) return;
    const ids = type.includes("html") ? new Set([...body.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1])) : undefined;
    for (const link of extractLinks(body, type)) {
      if (ids && link.startsWith("#") && link.length > 1 && !ids.has(decodeURIComponent(link.slice(1)))) {
        brokenFragments.push(`${path} -> ${link}`);
      }
      const target = sitePath(link, path, options);
      if (target) add(target, path);
    }
  }

  const workers = Array.from({ length: concurrency }, async () => {
    for (let item = queue.shift(); item; item = queue.shift()) await visit(item);
  });
  // A worker may find its queue empty while another is still adding links: go round until done.
  await Promise.all(workers);
  while (queue.length > 0) {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let item = queue.shift(); item; item = queue.shift()) await visit(item);
      }),
    );
  }
  return { fetched, brokenFragments };
}
