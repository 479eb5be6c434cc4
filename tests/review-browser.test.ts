import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import type { Business } from "@riverbend/shared/schemas/business.ts";
import { hasText, type Review } from "@riverbend/shared/schemas/review.ts";
import { PAGE_SIZE, pageWindow } from "@riverbend/shared/web/pagination.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { writeBrowserPages, writePermalinkPages } from "../src/build/review-pages.ts";
import { loadDataset } from "../src/data/load-dataset.ts";
import { compileTopics, matchTopics } from "../src/insights/topics/match-topics.ts";
import { listen } from "./support/http.ts";
import { analyzer } from "./support/insights-analysis-fixture.ts";

const dist = () => inject("sampleDist");
const pageFile = (urlPath: string) => path.join(dist(), urlPath, "index.html");
const html = (urlPath: string) => readFileSync(pageFile(urlPath), "utf8");
const { business, reviews } = JSON.parse(readFileSync(path.join(inject("sampleDist"), "reviews.json"), "utf8")) as {
  business: Business;
  reviews: Review[];
};

/** The listings the issue asks for, computed naively from reviews.json: URL path to review ids. */
function naiveListings(): Map<string, string[]> {
  const ids = (keep: (r: Review) => boolean) => reviews.filter(keep).map((r) => r.id);
  const listings = new Map<string, string[]>([["/reviews/", ids(() => true)]]);
  for (const rating of [1, 2, 3, 4, 5])
    listings.set(
      `/reviews/rating/${rating}/`,
      ids((r) => r.rating === rating),
    );
  for (const t of business.technicians) {
    listings.set(
      `/reviews/technician/${t.id}/`,
      ids((r) => r.technicians.includes(t.name)),
    );
  }
  for (const s of business.services)
    listings.set(
      `/reviews/service/${s.id}/`,
      ids((r) => r.services.includes(s.id)),
    );
  for (const a of business.service_areas) {
    listings.set(
      `/reviews/area/${a.id}/`,
      ids((r) => r.service_area === a.id),
    );
  }
  // Each published topic: the reviews with a judged clause on it, read again by the analyser.
  const insights = JSON.parse(readFileSync(path.join(inject("sampleDist"), "insights.json"), "utf8"));
  const catalogue = compileTopics(JSON.parse(readFileSync("data/insights/topics.json", "utf8")));
  const onTopics = new Map(
    reviews
      .filter(hasText)
      .map((r) => [
        r.id,
        new Set(matchTopics(r.text, analyzer.analyze(r.text, r.rating), catalogue).map((m) => m.lemma)),
      ]),
  );
  for (const t of insights.topics as { id: string }[]) {
    listings.set(
      `/reviews/topic/${t.id}/`,
      ids((r) => onTopics.get(r.id)?.has(t.id) ?? false),
    );
  }
  return listings;
}

const articleIds = (page: string) =>
  [...page.matchAll(/<article class="review" id="review-([^"]+)"/g)].map((m) => m[1]);
const nextLink = (page: string) => /<a href="([^"]+)" rel="next">/.exec(page)?.[1];
const prevLink = (page: string) => /<a href="([^"]+)" rel="prev">/.exec(page)?.[1];

interface FilterLink {
  href: string;
  kind: string;
  count: number;
  /** The "all N" of a link that leaves the page's filter for another's listing. */
  all: number | undefined;
  current: string | undefined;
}

function filterLinks(page: string): FilterLink[] {
  const bar = /<nav class="filters"[\s\S]*?<\/nav>/.exec(page)?.[0] ?? "";
  return [
    ...bar.matchAll(
      /<a href="([^"]+)" data-filter-kind="([a-z]+)"[^>]*?(?: aria-current="([a-z]+)")?>[^<]*<span class="count">\(([\d,]+)\)<\/span>(?: <span class="leads">· all ([\d,]+)<\/span>)?<\/a>/g,
    ),
  ].map((m) => ({
    href: m[1] as string,
    kind: m[2] as string,
    current: m[3],
    count: Number((m[4] as string).replace(/,/g, "")),
    all: m[5] === undefined ? undefined : Number(m[5].replace(/,/g, "")),
  }));
}

/** Follows rel="next" from a listing's first page, checking each page's own pager on the way. */
function walk(first: string): { paths: string[]; ids: string[] } {
  const paths: string[] = [];
  const ids: string[] = [];
  let current: string | undefined = first;
  while (current) {
    const page = html(current);
    const onPage = articleIds(page);
    expect(onPage.length, current).toBeLessThanOrEqual(PAGE_SIZE);
    expect(prevLink(page), current).toBe(paths.at(-1));
    paths.push(current);
    ids.push(...(onPage as string[]));
    current = nextLink(page);
    // Every page but the last is full, so page N holds exactly reviews (N-1)*50+1 to N*50.
    if (current) expect(onPage.length, paths.at(-1)).toBe(PAGE_SIZE);
  }
  return { paths, ids };
}

describe("the review browser on the sample build", () => {
  const expected = naiveListings();

  it("puts every review of each listing on exactly one of its pages, newest first", () => {
    expect(expected.get("/reviews/")).toHaveLength(reviews.length);
    for (const [first, ids] of expected) {
      const walked = walk(first);
      expect(walked.ids, first).toEqual(ids);
      expect(walked.paths.length, first).toBe(Math.max(1, Math.ceil(ids.length / PAGE_SIZE)));
      walked.paths.forEach((p, i) => {
        expect(p).toBe(i === 0 ? first : `${first}page/${i + 1}/`);
      });
    }
    // The sample is big enough for the pager to matter somewhere other than /reviews/.
    expect(walk("/reviews/rating/5/").paths.length).toBeGreaterThan(2);
  });

  it("has a filter bar on every browser page, counts of the page's own selection, the current one marked", () => {
    const kindOf = (first: string) => first.split("/")[2] ?? "";
    for (const [first, selected] of expected) {
      const within = new Set(selected);
      for (const p of walk(first).paths) {
        const links = filterLinks(html(p));
        expect(links.map((l) => l.href).sort(), p).toEqual([...expected.keys()].sort());
        for (const link of links) {
          const all = expected.get(link.href) ?? [];
          // On /reviews/, for "All reviews" and for the page's own kind of filter, a link's count is
          // what it lists; for another kind, the page's reviews it holds, then "all N" for where it leads.
          const leaves = first !== "/reviews/" && link.href !== "/reviews/" && kindOf(link.href) !== kindOf(first);
          const count = leaves ? all.filter((id) => within.has(id)).length : all.length;
          expect(link.count, `${p} → ${link.href}`).toBe(count);
          expect(link.all, `${p} → ${link.href}`).toBe(leaves ? all.length : undefined);
        }
        const marked = links.filter((l) => l.current !== undefined);
        expect(
          marked.map((l) => l.href),
          p,
        ).toEqual([first]);
        expect(marked[0]?.current, p).toBe(p === first ? "page" : "true");
      }
    }
  });

  it("links only to built files from filter bars and pagers", () => {
    const pages = [...expected.keys()].flatMap((first) => walk(first).paths);
    for (const p of pages) {
      const page = html(p);
      const pager = /<nav class="pager"[\s\S]*?<\/nav>/.exec(page)?.[0] ?? "";
      const hrefs = [...pager.matchAll(/href="([^"]+)"/g)].map((m) => m[1] as string);
      for (const href of [...filterLinks(page).map((l) => l.href), ...hrefs]) {
        expect(existsSync(pageFile(href)), `${p} links to ${href}`).toBe(true);
        expect(pages, `${p} links to ${href}`).toContain(href);
      }
      expect(page).toContain(`<script src="/review-filter.js" defer></script>`);
    }
  });

  it("writes no page of a combination of filters", () => {
    const kinds = readdirSync(path.join(dist(), "reviews/rating/5"));
    expect(kinds.sort()).toEqual(["index.html", "page"]);
    expect(readdirSync(path.join(dist(), "reviews/technician/luis-ortega"))).toEqual(["index.html"]);
  });

  it("gives every review a permalink page with its article", () => {
    for (const review of reviews) {
      expect(articleIds(html(`/reviews/${review.id}/`))).toEqual([review.id]);
    }
  });
});

describe("pageWindow", () => {
  it("always shows the first, the last and the pages around the current one, gaps as null", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, null, 10]);
    expect(pageWindow(6, 10)).toEqual([1, null, 4, 5, 6, 7, 8, null, 10]);
    expect(pageWindow(1000, 2000)).toEqual([1, null, 998, 999, 1000, 1001, 1002, null, 2000]);
  });
});

describe("the browser pages' writers", () => {
  const work = mkdtempSync(path.join(tmpdir(), "review-browser-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  function write(dataDir: string, out: string) {
    const dataset = loadDataset(dataDir);
    const urls = siteUrls("https://reviews.test");
    return new Map([...writeBrowserPages(out, dataset, urls), ...writePermalinkPages(out, dataset, urls)]);
  }

  it("write byte-identical pages and digests twice over, and return every file they wrote", () => {
    const first = write("tests/fixtures/data-search", path.join(work, "a"));
    const second = write("tests/fixtures/data-search", path.join(work, "b"));
    expect([...second.entries()]).toEqual([...first.entries()]);
    const listed = (dir: string): string[] =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
    expect(listed(path.join(work, "a")).sort()).toEqual([...first.keys()].sort());
    for (const file of first.keys()) {
      const same = readFileSync(path.join(work, "a", file)).equals(readFileSync(path.join(work, "b", file)));
      expect(same, file).toBe(true);
    }
  });

  it("write a first page for a listing with no reviews, so every filter link resolves", () => {
    const pages = write("tests/fixtures/data-small", path.join(work, "small"));
    const dataset = loadDataset("tests/fixtures/data-small");
    const used = new Set(dataset.reviews.map((r) => r.service_area));
    const empty = dataset.business.service_areas.find((a) => !used.has(a.id));
    expect(empty).toBeDefined();
    const page = readFileSync(path.join(work, "small", `reviews/area/${empty?.id}/index.html`), "utf8");
    expect(page).toContain(`<p class="empty">No reviews yet.</p>`);
    expect(pages.has(`reviews/area/${empty?.id}/index.html`)).toBe(true);
  });
});

describe("the enhancement script, served with the sample build", () => {
  let server: { base: string; close: () => Promise<void> };
  beforeAll(async () => {
    const logger = pino({ level: "silent" });
    const store = new BundleStore(inject("sampleDist"), logger);
    server = await listen(
      createApp({ config: { SITE_URL: "https://reviews.test", SERVE_STATIC: true }, store, logger }),
    );
  });
  afterAll(() => server.close());

  it("serves the script and the browser's stylesheet with their types", async () => {
    for (const [file, type] of [
      ["/review-filter.js", "text/javascript; charset=utf-8"],
      ["/browser.css", "text/css; charset=utf-8"],
    ] as const) {
      const response = await fetch(`${server.base}${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("content-type"), file).toBe(type);
      expect(await response.text()).toBe(readFileSync(path.join("public", file), "utf8"));
    }
  });

  it("gets from the search API, with the parameters the script sends, what the static listings hold", async () => {
    const expected = naiveListings();
    const checks: [string, string][] = [
      ...business.technicians.map((t): [string, string] => [
        `mentions_technician=${t.id}`,
        `/reviews/technician/${t.id}/`,
      ]),
      ...business.services.map((s): [string, string] => [`mentions_service=${s.id}`, `/reviews/service/${s.id}/`]),
      ["rating=5", "/reviews/rating/5/"],
    ];
    for (const [query, listing] of checks) {
      const response = await fetch(`${server.base}/api/reviews/search?limit=50&${query}`);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await response.json()) as { total: number; reviews: Review[] };
      const ids = expected.get(listing) ?? [];
      expect(body.total, query).toBe(ids.length);
      expect(body.reviews.map((r) => r.id)).toEqual(articleIds(html(listing)));
    }
  });
});
