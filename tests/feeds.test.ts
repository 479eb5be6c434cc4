/**
 * The Atom feed and the JSON Feed: the built sample feeds are valid, agree with each other and with
 * reviews.json, link to pages that exist, and escape review text; the pure builders are pinned by
 * file snapshots of a small hand-written dataset (tests/fixtures/data-small).
 *
 * validateAtom needs Debian's `jing` and `libxml2-utils` (xmllint); the Atom reads below use xmllint too.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { buildAtomFeed } from "../src/feeds/atom/build.ts";
import { buildJsonFeed } from "../src/feeds/json-feed/build.ts";
import { FEED_SIZE } from "../src/feeds/shared/entry.ts";
import { type JsonFeed, JsonFeedSchema } from "../src/schemas/json-feed.ts";
import type { Review } from "../src/schemas/review.ts";
import { type ReviewsDocument, ReviewsDocumentSchema } from "../src/schemas/reviews-document.ts";
import { paragraphs } from "../src/site/html.ts";
import { siteUrls } from "../src/site/urls.ts";
import { validateAtom, validateJsonFeed } from "./support/feed-validators.ts";
import { TEST_SITE_URL } from "./support/global-setup.ts";

const ATOM_TIMEOUT = 60_000; // jing starts a JVM
const run = promisify(execFile);

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/** XPath step for an Atom element (xmllint --xpath cannot bind a namespace prefix). */
const atom = (name: string) => `*[local-name()='${name}' and namespace-uri()='http://www.w3.org/2005/Atom']`;
const FEED = `/${atom("feed")}`;
const ENTRY = `${FEED}/${atom("entry")}`;

/** Evaluates an XPath 1.0 expression with xmllint; a string result comes back unescaped. */
async function xpath(file: string, expression: string): Promise<string> {
  const { stdout } = await run("xmllint", ["--nonet", "--xpath", expression, file], { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** Text of every node the expression selects, one per line (only for values without markup or newlines). */
async function xpathLines(file: string, expression: string): Promise<string[]> {
  return (await xpath(file, expression)).split("\n").filter((line) => line !== "");
}

/** The review id at the end of an entry id (tag:host,year:review:<id>). */
function reviewIdOf(entryId: string): string {
  const match = /:review:([a-z0-9-]+)$/.exec(entryId);
  if (!match?.[1]) throw new Error(`not a review entry id: ${entryId}`);
  return match[1];
}

/** The only tags content_html may contain; review text must never add any. */
const ALLOWED_TAGS = /<\/?(?:p|blockquote)>|<br>/g;
const ENTITY = /&(?:amp|lt|gt|quot|#39);/g;
const DECODE: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/**
 * Problems with the escaping of one item's content_html: a tag other than the builder's own, a bare
 * `&`, or a paragraph of the review text or reply that does not come back verbatim after decoding.
 */
function escapingProblems(html: string, review: Review): string[] {
  const problems: string[] = [];
  const withoutTags = html.replace(ALLOWED_TAGS, "\n");
  if (/[<>]/.test(withoutTags)) problems.push(`markup other than <p>, <br>, <blockquote>: ${html}`);
  if (/&/.test(withoutTags.replace(ENTITY, ""))) problems.push(`unescaped "&": ${html}`);
  const decoded = html
    .replace(/<br>/g, "\n")
    .replace(ALLOWED_TAGS, "\u0000")
    .replace(ENTITY, (entity) => DECODE[entity] ?? entity);
  const blocks = new Set(decoded.split("\u0000"));
  for (const paragraph of [...paragraphs(review.text), ...paragraphs(review.response?.text ?? "")]) {
    if (!blocks.has(paragraph)) problems.push(`paragraph not found verbatim after decoding: ${paragraph}`);
  }
  return problems;
}

const LINE_WIDTH = 120; // biome.json formatter.lineWidth

/**
 * Pretty JSON exactly as Biome formats it (2 spaces; an array of scalars on one line when it fits in
 * 120 columns), so the snapshot file passes `biome check`, which also covers tests/__snapshots__.
 */
function prettyJson(value: unknown): string {
  const format = (node: unknown, indent: number, column: number): string => {
    const pad = " ".repeat(indent + 2);
    if (Array.isArray(node)) {
      if (node.length === 0) return "[]";
      if (node.every((item) => item === null || typeof item !== "object")) {
        const inline = `[${node.map((item) => JSON.stringify(item)).join(", ")}]`;
        if (column + inline.length + 1 <= LINE_WIDTH) return inline;
      }
      const items = node.map((item) => pad + format(item, indent + 2, pad.length));
      return `[\n${items.join(",\n")}\n${" ".repeat(indent)}]`;
    }
    if (node !== null && typeof node === "object") {
      const entries = Object.entries(node).filter(([, item]) => item !== undefined);
      if (entries.length === 0) return "{}";
      const lines = entries.map(([key, item]) => {
        const head = `${pad}${JSON.stringify(key)}: `;
        return head + format(item, indent + 2, head.length);
      });
      return `{\n${lines.join(",\n")}\n${" ".repeat(indent)}}`;
    }
    return JSON.stringify(node);
  };
  return `${format(value, 0, 0)}\n`;
}

// ---------------------------------------------------------------------------
// The built sample site
// ---------------------------------------------------------------------------

describe("built sample feeds (feed.xml, api/feed.json)", () => {
  const dist = inject("sampleDist");
  const atomFile = path.join(dist, "feed.xml");
  let atomXml: string;
  let jsonFeed: JsonFeed;
  let reviewsDocument: ReviewsDocument;
  let reviewsById: Map<string, Review>;

  beforeAll(async () => {
    atomXml = await readFile(atomFile, "utf8");
    jsonFeed = JSON.parse(await readFile(path.join(dist, "api", "feed.json"), "utf8")) as JsonFeed;
    reviewsDocument = ReviewsDocumentSchema.parse(JSON.parse(await readFile(path.join(dist, "reviews.json"), "utf8")));
    reviewsById = new Map(reviewsDocument.reviews.map((review) => [review.id, review]));
  });

  it(
    "Atom passes validateAtom (well-formed, RFC 4287 RELAX NG, Schematron)",
    async () => {
      expect(await validateAtom(atomXml)).toEqual([]);
    },
    ATOM_TIMEOUT,
  );

  it("JSON Feed passes validateJsonFeed and the published JsonFeed schema", () => {
    expect(validateJsonFeed(jsonFeed)).toEqual([]);
    expect(JsonFeedSchema.safeParse(jsonFeed).error?.issues ?? []).toEqual([]);
  });

  it("both have the 50 newest reviews, newest first, with the same ids in the same order", async () => {
    expect(FEED_SIZE).toBe(50);
    const atomIds = await xpathLines(atomFile, `${ENTRY}/${atom("id")}/text()`);
    const jsonIds = jsonFeed.items.map((item) => item.id);
    expect(atomIds).toHaveLength(50);
    expect(jsonIds).toHaveLength(50);
    expect(atomIds).toEqual(jsonIds);
    expect(new Set(jsonIds).size).toBe(50);

    // The 50 newest reviews of reviews.json (which is newest first), in that order.
    expect(jsonIds.map(reviewIdOf)).toEqual(reviewsDocument.reviews.slice(0, 50).map((review) => review.id));

    const newestFirst = (times: number[]) => times.every((time, i) => i === 0 || time <= (times[i - 1] ?? time));
    const jsonTimes = jsonFeed.items.map((item) => Date.parse(item.date_published));
    const atomTimes = (await xpathLines(atomFile, `${ENTRY}/${atom("published")}/text()`)).map(Date.parse);
    expect(jsonTimes.every(Number.isFinite)).toBe(true);
    expect(newestFirst(jsonTimes)).toBe(true);
    expect(atomTimes).toEqual(jsonTimes);
  });

  it("each entry says the same in both formats: title, dates, link, HTML content", async () => {
    const atomUpdated = await xpathLines(atomFile, `${ENTRY}/${atom("updated")}/text()`);
    const entries = await Promise.all(
      jsonFeed.items.map(async (_, i) => {
        const entry = `${ENTRY}[${i + 1}]`;
        const [title, href, content] = await Promise.all([
          xpath(atomFile, `string(${entry}/${atom("title")})`),
          xpath(atomFile, `string(${entry}/${atom("link")}[@rel='alternate']/@href)`),
          xpath(atomFile, `string(${entry}/${atom("content")})`),
        ]);
        return { title: title.replace(/\n$/, ""), href: href.trim(), content: content.replace(/\n$/, "") };
      }),
    );
    jsonFeed.items.forEach((item, i) => {
      expect(entries[i], item.id).toEqual({ title: item.title, href: item.url, content: item.content_html });
      expect(atomUpdated[i], item.id).toBe(item.date_modified ?? item.date_published);
    });
  });

  it("the JSON Feed names its own URL (the WebSub topic) and the hub", () => {
    expect(jsonFeed.feed_url).toBe(`${TEST_SITE_URL}/api/feed.json`);
    expect(jsonFeed.feed_url).toBe("https://reviews.test/api/feed.json");
    expect(jsonFeed.home_page_url).toBe("https://reviews.test/");
    expect(jsonFeed.hubs).toEqual([{ type: "WebSub", url: "https://reviews.test/api/websub/hub" }]);
  });

  it("the Atom feed has rel=self, rel=hub and rel=alternate links", async () => {
    const link = (rel: string, attribute: string) =>
      xpath(atomFile, `string(${FEED}/${atom("link")}[@rel='${rel}']/@${attribute})`).then((s) => s.trim());
    const count = (rel: string) =>
      xpath(atomFile, `count(${FEED}/${atom("link")}[@rel='${rel}'])`).then((s) => Number(s.trim()));
    expect(await count("self")).toBe(1);
    expect(await link("self", "href")).toBe("https://reviews.test/feed.xml");
    expect(await link("self", "type")).toBe("application/atom+xml");
    expect(await count("hub")).toBe(1);
    expect(await link("hub", "href")).toBe("https://reviews.test/api/websub/hub");
    expect(await count("alternate")).toBe(1);
    expect(await link("alternate", "href")).toBe("https://reviews.test/");
    expect(await link("alternate", "type")).toBe("text/html");
  });

  it("each item's _review agrees with the review in reviews.json", () => {
    for (const item of jsonFeed.items) {
      const review = reviewsById.get(reviewIdOf(item.id));
      expect(review, item.id).toBeDefined();
      if (!review) continue;
      expect(item._review, item.id).toMatchObject({
        rating: review.rating,
        best_rating: 5,
        technicians: review.technicians,
        services: review.services,
        service_area: review.service_area,
        verified: true,
        verification_method: review.verification.method,
      });
      expect(item.authors, item.id).toEqual([{ name: review.author.name }]);
      expect(item.title.startsWith(`${review.rating}/5 · `), item.id).toBe(true);
    }
  });

  it("content_html is escaped: review text cannot add markup, and comes back verbatim when decoded", () => {
    for (const item of jsonFeed.items) {
      const review = reviewsById.get(reviewIdOf(item.id));
      if (!review) throw new Error(`no review for ${item.id}`);
      expect(escapingProblems(item.content_html, review), item.id).toEqual([]);
    }
  });

  it("every item url is the review's permalink, and the permalink page exists in the build", () => {
    for (const item of jsonFeed.items) {
      const id = reviewIdOf(item.id);
      expect(item.url).toBe(`https://reviews.test/reviews/${id}/`);
      expect(existsSync(path.join(dist, "reviews", id, "index.html")), `${item.url} has no page in dist`).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------
// The pure builders on a small hand-written dataset
// ---------------------------------------------------------------------------

describe("feed builders on tests/fixtures/data-small", () => {
  const dataset = loadDataset("tests/fixtures/data-small", { today: "2026-11-01" });
  const urls = siteUrls("https://reviews.test");
  const review = (id: string) => {
    const found = dataset.reviews.find((r) => r.id === id);
    if (!found) throw new Error(`fixture review ${id} is missing`);
    return found;
  };

  it("the fixture covers the cases it is meant to", () => {
    expect(dataset.reviews.length).toBeGreaterThanOrEqual(4);
    expect(dataset.reviews.some((r) => r.response)).toBe(true);
    expect(dataset.reviews.some((r) => r.updated)).toBe(true);
    expect(dataset.reviews.some((r) => r.title === undefined)).toBe(true);
    expect(dataset.reviews.some((r) => /[<&"'].*\p{Extended_Pictographic}/su.test(`${r.title} ${r.text}`))).toBe(true);
    expect(dataset.reviews.map((r) => r.date)).toEqual(expect.arrayContaining(["2025-03-09", "2025-11-02"]));
  });

  it(
    "Atom output matches the snapshot and is valid",
    async () => {
      const xml = buildAtomFeed(dataset, urls);
      await expect(xml).toMatchFileSnapshot("__snapshots__/data-small.feed.xml");
      expect(await validateAtom(xml)).toEqual([]);
    },
    ATOM_TIMEOUT,
  );

  it("JSON Feed output matches the snapshot and is valid", async () => {
    const feed = buildJsonFeed(dataset, urls);
    await expect(prettyJson(feed)).toMatchFileSnapshot("__snapshots__/data-small.feed.json");
    expect(JSON.parse(prettyJson(feed))).toEqual(feed);
    expect(validateJsonFeed(feed)).toEqual([]);
    expect(JsonFeedSchema.safeParse(feed).error?.issues ?? []).toEqual([]);
  });

  it("dates are local midnight with the offset in force on that day, across both DST changes", () => {
    const items = new Map(buildJsonFeed(dataset, urls).items.map((item) => [reviewIdOf(item.id), item]));
    // 2025-03-09: clocks go forward at 02:00, so midnight is still PST.
    expect(items.get("2025-03-09-ana-p")?.date_published).toBe("2025-03-09T00:00:00-08:00");
    // 2025-11-02: clocks go back at 02:00, so midnight is still PDT.
    expect(items.get("2025-11-02-kim")?.date_published).toBe("2025-11-02T00:00:00-07:00");
    // An edit (`updated`) and an owner reply both set date_modified; untouched reviews have none.
    expect(items.get("2025-01-20-hector-v")?.date_modified).toBe("2025-02-03T00:00:00-08:00");
    expect(items.get("2024-06-14-dolores-m")?.date_modified).toBe("2024-06-17T00:00:00-07:00");
    expect(items.get("2025-03-09-ana-p")).not.toHaveProperty("date_modified");
  });

  it("escapes markup, quotes and ampersands from the review, keeps emoji, and headlines an untitled review", () => {
    const feed = buildJsonFeed(dataset, urls);
    for (const item of feed.items) {
      expect(escapingProblems(item.content_html, review(reviewIdOf(item.id))), item.id).toEqual([]);
    }
    const sam = feed.items.find((item) => reviewIdOf(item.id) === "2025-07-04-sam-o");
    expect(sam?.content_html).toContain("&lt;/p&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(sam?.content_html).toContain("Sam O&#39;Neil &amp; &lt;Family&gt;");
    expect(sam?.content_html).toContain("👍🏽🇺🇸<br>Tip: &lt;b&gt;never&lt;/b&gt;");
    // title and content_text are plain text in JSON Feed: they stay unescaped.
    expect(sam?.title).toBe('5/5 · Disposal <script>alert("jammed")</script> & "fixed" 🎉');

    const atomXml = buildAtomFeed(dataset, urls);
    expect(atomXml).not.toContain("<script");
    expect(atomXml).toContain("&lt;script&gt;alert(&quot;jammed&quot;)&lt;/script&gt; &amp; &quot;fixed&quot; 🎉");

    const kim = feed.items.find((item) => reviewIdOf(item.id) === "2025-11-02-kim");
    expect(kim?.title).toBe("2/5 · The water heater install itself looks fine but the crew left the old…");
  });
});
