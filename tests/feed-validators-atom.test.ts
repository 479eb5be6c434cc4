/**
 * Proves validateAtom (tests/support/feed-validators-atom.ts) can fail: a small
 * valid Atom feed passes, and each planted defect is caught by the check meant
 * to catch it.
 *
 * validateAtom needs Debian's `jing` and `libxml2-utils` (xmllint).
 */
import { describe, expect, it } from "vitest";
import { ATOM_TIMEOUT, validateAtom } from "./support/feed-validators-atom.ts";
import { matching, SITE } from "./support/feed-validators-fixture.ts";

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
