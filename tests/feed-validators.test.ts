/**
 * Proves the feed validators in tests/support/feed-validators.ts can fail:
 * a small valid Atom feed and JSON Feed pass, and each planted defect is caught
 * by the check meant to catch it.
 *
 * validateAtom needs Debian's `jing` and `libxml2-utils` (xmllint).
 */
import { describe, expect, it } from "vitest";
import { JSON_FEED_VERSION, validateAtom, validateJsonFeed } from "./support/feed-validators.ts";

const SITE = "https://reviews.riverbend-plumbing.example";
const ATOM_TIMEOUT = 60_000; // jing starts a JVM

// ---------------------------------------------------------------------------
// Atom fixtures
// ---------------------------------------------------------------------------

const FEED_ID = `<id>${SITE}/feed.xml</id>`;
const FEED_UPDATED = "<updated>2026-11-20T10:00:00Z</updated>";
const FEED_AUTHOR = `<author><name>Riverbend Plumbing</name><uri>${SITE}/</uri></author>`;
const SELF_LINK = `<link rel="self" type="application/atom+xml" href="${SITE}/feed.xml"/>`;
const ENTRY_1_ID = `<id>${SITE}/reviews/r-0002</id>`;
const ENTRY_2_ID = `<id>${SITE}/reviews/r-0001</id>`;
const ENTRY_2_UPDATED = "<updated>2026-11-18T08:15:00-05:00</updated>";

const VALID_ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
  ${FEED_ID}
  <title>Riverbend Plumbing: verified customer reviews</title>
  <subtitle>The 50 newest verified customer reviews</subtitle>
  ${FEED_UPDATED}
  ${SELF_LINK}
  <link rel="alternate" type="text/html" href="${SITE}/reviews"/>
  <link rel="hub" href="https://hub.example/"/>
  ${FEED_AUTHOR}
  <entry>
    ${ENTRY_1_ID}
    <title>★★★★★ Boiler fixed the same day</title>
    <link rel="alternate" type="text/html" href="${SITE}/reviews/r-0002"/>
    <published>2026-11-20T09:30:00.250Z</published>
    <updated>2026-11-20T10:00:00+01:00</updated>
    <category term="boiler-repair" label="Boiler repair"/>
    <summary>5/5, verified: boiler fixed the same day.</summary>
    <content type="html">&lt;p&gt;Boiler fixed the same day &amp;amp; tidy work.&lt;/p&gt;</content>
  </entry>
  <entry>
    ${ENTRY_2_ID}
    <title>★★★★☆ Leak found quickly</title>
    <link href="${SITE}/reviews/r-0001"/>
    <published>2026-11-18T08:15:00-05:00</published>
    ${ENTRY_2_UPDATED}
    <summary>4/5, verified: leak found quickly.</summary>
  </entry>
</feed>
`;

/** Applies one textual change to the valid feed and fails loudly if the anchor text is missing. */
function plant(search: string, replacement: string, xml = VALID_ATOM): string {
  expect(xml, `fixture must contain ${search}`).toContain(search);
  return xml.replace(search, replacement);
}

const matching = (errors: string[], pattern: RegExp) => errors.filter((error) => pattern.test(error));

describe("validateAtom", () => {
  it("accepts the valid feed", { timeout: ATOM_TIMEOUT }, async () => {
    expect(await validateAtom(VALID_ATOM)).toEqual([]);
  });

  const defects: Array<{ name: string; xml: () => string; expect: RegExp }> = [
    {
      name: "missing feed id",
      xml: () => plant(FEED_ID, ""),
      expect: /^RELAX NG .*missing required element.*"id"/,
    },
    {
      name: "entry without updated",
      xml: () => plant(ENTRY_2_UPDATED, ""),
      expect: /^RELAX NG .*"updated"/,
    },
    {
      name: "date without zone",
      xml: () => plant(FEED_UPDATED, "<updated>2026-11-20T10:00:00</updated>"),
      expect: /^Schematron .*RFC 4287 3\.3.*zone/,
    },
    {
      name: "relative id",
      xml: () => plant(ENTRY_2_ID, "<id>reviews/r-0001</id>"),
      expect: /^Schematron .*atom:id must be an absolute IRI/,
    },
    {
      name: "no author anywhere",
      xml: () => plant(FEED_AUTHOR, ""),
      expect: /^Schematron .*must have an atom:author/,
    },
    {
      name: "duplicate entry ids",
      xml: () => plant(ENTRY_2_ID, ENTRY_1_ID),
      expect: /^Schematron .*Duplicate entry id/,
    },
    {
      name: 'no link rel="self"',
      xml: () => plant(SELF_LINK, ""),
      expect: /^Schematron .*rel="self"/,
    },
    {
      name: "feed metadata after the entries",
      xml: () => plant("</feed>", `  ${FEED_UPDATED}\n</feed>`, plant(FEED_UPDATED, "")),
      expect: /^RELAX NG .*"updated" not allowed/,
    },
    {
      name: "malformed XML",
      xml: () => plant("</subtitle>", "</subtitel>"),
      expect: /^XML not well-formed: line \d+: .*(mismatch|subtitel)/,
    },
  ];

  for (const defect of defects) {
    it(`catches: ${defect.name}`, { timeout: ATOM_TIMEOUT }, async () => {
      const errors = await validateAtom(defect.xml());
      expect(errors.length).toBeGreaterThan(0);
      expect(matching(errors, defect.expect), errors.join("\n")).not.toEqual([]);
    });
  }

  it("reports every planted defect at once, with line numbers", {
    timeout: ATOM_TIMEOUT,
  }, async () => {
    let xml = plant(FEED_AUTHOR, "");
    xml = plant(ENTRY_2_ID, ENTRY_1_ID, xml);
    xml = plant(SELF_LINK, "", xml);
    const errors = await validateAtom(xml);
    expect(matching(errors, /^Schematron \(atom\.sch\): line \d+/)).toHaveLength(errors.length);
    expect(matching(errors, /Duplicate entry id/)).toHaveLength(1);
    expect(matching(errors, /rel="self"/)).toHaveLength(1);
    expect(matching(errors, /atom:author/).length).toBeGreaterThanOrEqual(1);
  });

  it("names the Debian package when a tool is missing", async () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      await expect(validateAtom(VALID_ATOM)).rejects.toThrow(/apt-get install -y libxml2-utils/);
    } finally {
      process.env.PATH = path;
    }
  });

  it("rejects a DOCTYPE without handing it to the XML tools", async () => {
    const xml = plant(
      '<?xml version="1.0" encoding="utf-8"?>',
      '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE feed [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
    );
    expect(await validateAtom(xml)).toEqual([expect.stringMatching(/DOCTYPE/)]);
  });
});

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
