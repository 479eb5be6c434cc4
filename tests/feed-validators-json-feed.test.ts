/**
 * Proves validateJsonFeed (tests/support/feed-validators-json-feed.ts) can fail:
 * a small valid JSON Feed passes, and each planted defect is caught by the check
 * meant to catch it.
 */
import { describe, expect, it } from "vitest";
import { matching, SITE } from "./support/feed-validators-fixture.ts";
import { JSON_FEED_VERSION, validateJsonFeed } from "./support/feed-validators-json-feed.ts";

// ---------------------------------------------------------------------------
// JSON Feed fixtures
// ---------------------------------------------------------------------------

type Item = Record<string, unknown>;
type Feed = Record<string, unknown> & { items: Item[] };

function item(n: number, datePublished: string): Item {
  return {
    id: `${SITE}/reviews/r-${String(n).padStart(4, "0")}`,
    url: `${SITE}/reviews/r-${String(n).padStart(4, "0")}`,
    title: `Review ${n}`,
    content_text: `Review ${n}: good work.`,
    content_html: `<p>Review ${n}: good work.</p>`,
    summary: `5/5, verified: review ${n}.`,
    date_published: datePublished,
    date_modified: datePublished,
    tags: ["boiler-repair", "Riverbend"],
    authors: [{ name: `Customer ${n}` }],
    _reviews: {
      about: `${SITE}/docs/feed-extension`,
      rating: 5,
      verified: true,
    },
  };
}

function validJsonFeed(): Feed {
  return {
    version: JSON_FEED_VERSION,
    title: "Riverbend Plumbing: verified customer reviews",
    home_page_url: `${SITE}/reviews`,
    feed_url: `${SITE}/api/feed.json`,
    description: "The 50 newest verified customer reviews",
    language: "en",
    authors: [{ name: "Riverbend Plumbing", url: `${SITE}/` }],
    hubs: [{ type: "WebSub", url: "https://hub.example/" }],
    _reviews: { about: `${SITE}/docs/feed-extension`, rating_count: 2 },
    items: [item(2, "2026-11-20T10:00:00+01:00"), item(1, "2026-11-18T08:15:00.5Z")],
  };
}

/** A valid feed with `n` items, newest first. */
function feedWithItems(n: number): Feed {
  const feed = validJsonFeed();
  const start = Date.parse("2026-11-20T00:00:00Z");
  feed.items = Array.from({ length: n }, (_, i) => item(n - i, new Date(start - i * 3_600_000).toISOString()));
  return feed;
}

function defective(change: (feed: Feed) => void): Feed {
  const feed = validJsonFeed();
  change(feed);
  return feed;
}

const firstItem = (feed: Feed): Item => feed.items[0] as Item;
const secondItem = (feed: Feed): Item => feed.items[1] as Item;

describe("validateJsonFeed", () => {
  it("accepts the valid feed", () => {
    expect(validateJsonFeed(validJsonFeed())).toEqual([]);
  });

  it("accepts exactly maxItems items", () => {
    expect(validateJsonFeed(feedWithItems(50))).toEqual([]);
    expect(validateJsonFeed(feedWithItems(3), { maxItems: 3 })).toEqual([]);
  });

  const defects: Array<{ name: string; feed: () => unknown; expect: RegExp }> = [
    {
      name: "www. version variant",
      feed: () => defective((f) => (f.version = "https://www.jsonfeed.org/version/1.1")),
      expect: /^version: must be exactly/,
    },
    {
      name: "version 1 string (allowed by jsonfeed-schema)",
      feed: () => defective((f) => (f.version = "https://jsonfeed.org/version/1")),
      expect: /^version: must be exactly/,
    },
    {
      name: "duplicate item ids",
      feed: () => defective((f) => (secondItem(f).id = firstItem(f).id)),
      expect: /^items\[1\]\.id: duplicate id/,
    },
    {
      name: "empty item id",
      feed: () => defective((f) => (firstItem(f).id = "")),
      expect: /^items\[0\]\.id: must be a non-empty string/,
    },
    {
      name: "date without offset",
      feed: () => defective((f) => (secondItem(f).date_published = "2026-11-18T08:15:00")),
      expect: /^items\[1\]\.date_published: must be an RFC 3339 date-time/,
    },
    {
      name: "missing feed_url",
      feed: () => defective((f) => delete f.feed_url),
      expect: /^feed_url: required/,
    },
    {
      name: "hub missing",
      feed: () => defective((f) => delete f.hubs),
      expect: /^hubs: must contain a hub with type "WebSub"/,
    },
    {
      name: "extension key with a dot",
      feed: () =>
        defective((f) => {
          firstItem(f)["_reviews.v2"] = { rating: 5 };
        }),
      expect: /^items\[0\]\._reviews\.v2: extension names must .*no "\."/,
    },
    {
      name: "extension member name with a dot",
      feed: () =>
        defective((f) => {
          f._reviews = { "rating.count": 2 };
        }),
      expect: /^feed\._reviews: extension member key "rating\.count" must not contain "\."/,
    },
    {
      name: "items out of order",
      feed: () => defective((f) => f.items.reverse()),
      expect: /^items\[1\]: items must be newest first/,
    },
    {
      name: "51 items",
      feed: () => feedWithItems(51),
      expect: /^items: 51 items, more than the limit of 50/,
    },
  ];

  for (const defect of defects) {
    it(`catches: ${defect.name}`, () => {
      const errors = validateJsonFeed(defect.feed());
      expect(errors.length).toBeGreaterThan(0);
      expect(matching(errors, defect.expect), errors.join("\n")).not.toEqual([]);
    });
  }

  it("honours maxItems", () => {
    expect(validateJsonFeed(feedWithItems(4), { maxItems: 3 })).toEqual(["items: 4 items, more than the limit of 3"]);
  });

  it("reports schema errors from jsonfeed-schema (Ajv) too", () => {
    const errors = validateJsonFeed(
      defective((f) => {
        delete firstItem(f).content_html;
        delete firstItem(f).content_text;
        f.authors = [{}];
      }),
    );
    expect(matching(errors, /^schema: \/items\/0 must have required property 'content_(html|text)'/)).not.toEqual([]);
    expect(matching(errors, /^schema: \/authors\/0 must NOT have fewer than 1 properties/)).not.toEqual([]);
  });

  it("rejects what is not a feed object", () => {
    expect(validateJsonFeed(null)).toContain("feed: must be a JSON object");
    expect(validateJsonFeed([])).not.toEqual([]);
  });
});
