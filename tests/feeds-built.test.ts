/**
 * The built sample feeds (feed.xml, api/feed.json): they are valid, agree with each other and with
 * reviews.json, link to pages that exist, and escape review text.
 *
 * validateAtom needs Debian's `jing` and `libxml2-utils` (xmllint); the Atom reads below use xmllint too.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { type JsonFeed, JsonFeedSchema } from "@riverbend/shared/schemas/json-feed.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { type ReviewsDocument, ReviewsDocumentSchema } from "@riverbend/shared/schemas/reviews-document.ts";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { FEED_SIZE } from "../src/feeds/shared/entry.ts";
import { ATOM_TIMEOUT, validateAtom } from "./support/feed-validators-atom.ts";
import { validateJsonFeed } from "./support/feed-validators-json-feed.ts";
import { escapingProblems, reviewIdOf } from "./support/feeds-items.ts";
import { TEST_SITE_URL } from "./support/global-setup.ts";

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
