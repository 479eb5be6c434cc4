/**
 * The pure feed builders, pinned by file snapshots of a small hand-written dataset
 * (tests/fixtures/data-small): the Atom feed and the JSON Feed are valid, date reviews
 * correctly across DST changes, and escape review text.
 *
 * validateAtom needs Debian's `jing` and `libxml2-utils` (xmllint).
 */

import { JsonFeedSchema } from "@riverbend/shared/schemas/json-feed.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { buildAtomFeed } from "../src/feeds/atom/build.ts";
import { buildJsonFeed } from "../src/feeds/json-feed/build.ts";
import { ATOM_TIMEOUT, validateAtom } from "./support/feed-validators-atom.ts";
import { validateJsonFeed } from "./support/feed-validators-json-feed.ts";
import { escapingProblems, reviewIdOf } from "./support/feeds-items.ts";

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
