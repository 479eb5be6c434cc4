/**
 * Property tests (fast-check) for the small serializers in src/: HTML escaping and paragraphs, the
 * RFC 3339 and HTTP dates of local midnight, and field paths in error messages. The feed builders are
 * in properties-feeds.test.ts; seed and shared generators in support/properties-arbitraries.ts.
 *
 * The regression test at the end of the dates block pins a bug these properties found (now fixed).
 */

import { formatPath } from "@riverbend/shared/schemas/format-issue.ts";
import { httpDate, localMidnight, rfc3339 } from "@riverbend/shared/web/time.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeHtml, paragraphs, textToHtml } from "../src/site/html.ts";
import { isoDate, runs, textUnit } from "./support/properties-arbitraries.ts";

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&amp;": "&" };
/** Inverse of escapeHtml: exactly its five entities, `&amp;` in the same pass so `&amp;lt;` stays `&lt;`. */
const decodeEntities = (html: string) => html.replace(/&(?:lt|gt|quot|#39|amp);/g, (e) => ENTITIES[e] ?? e);

// ---------------------------------------------------------------------------
// escapeHtml, paragraphs, textToHtml
// ---------------------------------------------------------------------------

describe("escapeHtml", () => {
  const anyText = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: textUnit }));

  it("leaves no <, >, \" or ' and decoding its five entities gives back the input", () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const out = escapeHtml(input);
        expect(out).not.toMatch(/[<>"']/);
        // Every & starts one of the five entities: nothing else can be read as markup or a reference.
        expect(out.replace(/&(?:amp|lt|gt|quot|#39);/g, "")).not.toContain("&");
        expect(decodeEntities(out)).toBe(input);
      }),
      runs(),
    );
  });

  it("changes nothing in text without the five special characters", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }).map((s) => s.replace(/[&<>"']/g, "")),
        (input) => {
          expect(escapeHtml(input)).toBe(input);
        },
      ),
      runs(),
    );
  });
});

describe("paragraphs and textToHtml", () => {
  /** A line with something visible on it and no line feed. */
  const line = fc
    .string({ unit: fc.oneof(textUnit, fc.constant(" ")), minLength: 1, maxLength: 30 })
    .map((s) => s.replace(/\n/g, " "))
    .filter((s) => s.trim() !== "");
  const paragraph = fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => lines.join("\n"));
  const separator = fc.constantFrom("\n\n", "\n\n\n", "\n \n", "\n\t \n\n", "\r\n\r\n");
  const document = fc
    .tuple(
      fc.array(fc.tuple(paragraph, separator), { minLength: 1, maxLength: 6 }),
      fc.constantFrom("", " ", "\n", "\n\n "),
      fc.constantFrom("", "\n", " \n\n"),
    )
    .map(([parts, lead, trail]) => ({
      expected: parts.map(([p]) => p.trim()),
      text: lead + parts.map(([p, sep], i) => (i === 0 ? p : sep + p)).join("") + trail,
    }));

  it("paragraphs splits at blank lines only, keeping single line breaks, trimmed", () => {
    fc.assert(
      fc.property(document, ({ expected, text }) => {
        expect(paragraphs(text)).toEqual(expected);
      }),
      runs(),
    );
  });

  it("textToHtml makes one <p> per paragraph, <br> per line break, and escapes everything else", () => {
    fc.assert(
      fc.property(document, ({ expected, text }) => {
        const html = textToHtml(text);
        expect(html.match(/<p>/g) ?? []).toHaveLength(expected.length);
        expect(html).toMatch(/^(?:<p>[^<>]*(?:<br>[^<>]*)*<\/p>)+$/);
        const blocks = [...html.matchAll(/<p>(.*?)<\/p>/gs)].map((m) =>
          decodeEntities((m[1] ?? "").replace(/<br>/g, "\n")),
        );
        expect(blocks).toEqual(expected);
      }),
      runs(),
    );
  });

  it("textToHtml of any text contains only <p>, </p> and <br> tags", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: textUnit })), (input) => {
        const html = textToHtml(input);
        expect(html.replace(/<\/?p>|<br>/g, "")).not.toMatch(/[<>]/);
        expect(html.match(/<p>/g) ?? []).toHaveLength(paragraphs(input).length);
      }),
      runs(),
    );
  });
});

// ---------------------------------------------------------------------------
// rfc3339, httpDate, localMidnight
// ---------------------------------------------------------------------------

/** Zones with whole-hour, half-hour and 45-minute offsets, 30-minute DST, both hemispheres, and UTC. */
const ZONES = [
  "America/Los_Angeles",
  "America/New_York",
  "America/St_Johns",
  "Europe/London",
  "Europe/Berlin",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Tokyo",
  "Australia/Lord_Howe",
  "Pacific/Auckland",
  "Pacific/Chatham",
  "UTC",
];

const localParts = (instant: number, timeZone: string) => {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value;
  return { date: `${get("year")}-${get("month")}-${get("day")}`, time: `${get("hour")}:${get("minute")}` };
};

describe("rfc3339, httpDate and localMidnight (1990-2099, several time zones)", () => {
  const dateAndZone = fc.tuple(isoDate(1990, 2099), fc.constantFrom(...ZONES));
  // DST-change days in the business's zone and in the southern hemisphere, always included.
  const EXAMPLES: [[string, string]][] = [
    [["2025-03-09", "America/Los_Angeles"]],
    [["2025-11-02", "America/Los_Angeles"]],
    [["2025-10-05", "Australia/Lord_Howe"]],
    [["2025-04-06", "Pacific/Chatham"]],
  ];

  it("rfc3339 is the date at 00:00:00 with Z or a ±hh:mm offset, and parses to localMidnight's instant", () => {
    fc.assert(
      fc.property(dateAndZone, ([date, zone]) => {
        const value = rfc3339(date, zone);
        expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)$/);
        expect(value.startsWith(`${date}T`)).toBe(true);
        const { instant, offset } = localMidnight(date, zone);
        expect(Date.parse(value)).toBe(instant);
        expect(value.endsWith("Z")).toBe(offset === 0);
      }),
      { ...runs(500), examples: EXAMPLES },
    );
  });

  it("localMidnight's instant is 00:00 on that calendar date in the zone", () => {
    fc.assert(
      fc.property(dateAndZone, ([date, zone]) => {
        expect(localParts(localMidnight(date, zone).instant, zone)).toEqual({ date, time: "00:00" });
      }),
      { ...runs(500), examples: EXAMPLES },
    );
  });

  it("httpDate is an RFC 9110 IMF-fixdate of the same instant", () => {
    fc.assert(
      fc.property(dateAndZone, ([date, zone]) => {
        const value = httpDate(date, zone);
        expect(value).toMatch(
          /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:00 GMT$/,
        );
        expect(Date.parse(value)).toBe(localMidnight(date, zone).instant);
      }),
      { ...runs(500), examples: EXAMPLES },
    );
  });

  // Regression: where DST starts at local midnight (00:00 -> 01:00), localMidnight took the offset
  // *after* the change, which gave 23:00 of the day before. The first instant of the day is the change
  // itself, i.e. 00:00 with the offset *before* it (e.g. 2024-03-10T00:00:00-05:00).
  it("in zones where DST starts at midnight, localMidnight still falls on the given date", () => {
    const cases: [string, string][] = [
      ["2024-03-10", "America/Havana"],
      ["2024-09-08", "America/Santiago"],
      ["2018-11-04", "America/Sao_Paulo"],
    ];
    for (const [date, zone] of cases) {
      expect(localParts(Date.parse(rfc3339(date, zone)), zone).date, `${date} ${zone}`).toBe(date);
    }
  });
});

// ---------------------------------------------------------------------------
// formatPath
// ---------------------------------------------------------------------------

/** Reads back what formatPath writes, for identifier keys and array indexes. */
function parsePath(text: string): (string | number)[] {
  const token = /(?:^|\.)([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/y;
  const keys: (string | number)[] = [];
  while (token.lastIndex < text.length) {
    const at = token.lastIndex;
    const match = token.exec(text);
    if (!match) throw new Error(`cannot parse ${JSON.stringify(text)} at ${at}`);
    keys.push(match[1] ?? Number(match[2]));
  }
  return keys;
}

describe("formatPath", () => {
  const key = fc.oneof(fc.nat({ max: 10_000 }), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/));

  it("round-trips: field names joined by dots, indexes in brackets", () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 8 }), (path) => {
        expect(parsePath(formatPath(path))).toEqual(path);
      }),
      runs(),
    );
  });

  it("writes names as a dotted path and each index as [n] right after the preceding key", () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 8 }), key, (path, last) => {
        const before = formatPath(path);
        const expected = typeof last === "number" ? `${before}[${last}]` : before === "" ? last : `${before}.${last}`;
        expect(formatPath([...path, last])).toBe(expected);
      }),
      runs(),
    );
    expect(formatPath([])).toBe("");
    expect(formatPath(["technicians", 0])).toBe("technicians[0]");
    expect(formatPath(["author", "name"])).toBe("author.name");
  });
});
