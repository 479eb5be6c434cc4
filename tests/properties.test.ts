/**
 * Property tests (fast-check) for the serializers in src/: HTML escaping and paragraphs, the RFC 3339
 * and HTTP dates of local midnight, field paths in error messages, and both feed builders on
 * arbitrary review texts, titles and author names.
 *
 * Runs are reproducible: every property uses FC_SEED (default below); set FC_SEED to explore others.
 * The regression tests at the end of some blocks pin bugs these properties found (now fixed).
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareNewestFirst, type Dataset } from "../src/data/dataset.ts";
import { formatPath } from "../src/data/format-issue.ts";
import { buildAtomFeed } from "../src/feeds/atom/build.ts";
import { buildJsonFeed } from "../src/feeds/json-feed/build.ts";
import { BusinessSchema } from "../src/schemas/business.ts";
import { JsonFeedSchema } from "../src/schemas/json-feed.ts";
import { type Review, ReviewSchema } from "../src/schemas/review.ts";
import { escapeHtml, paragraphs, textToHtml } from "../src/site/html.ts";
import { httpDate, localMidnight, rfc3339 } from "../src/site/time.ts";
import { siteUrls } from "../src/site/urls.ts";
import { validateAtom, validateJsonFeed } from "./support/feed-validators.ts";

const SEED = Number(process.env.FC_SEED ?? 20261101);
const runs = (numRuns?: number): fc.Parameters<unknown> => ({ seed: SEED, ...(numRuns ? { numRuns } : {}) });

// ---------------------------------------------------------------------------
// Shared generators and helpers
// ---------------------------------------------------------------------------

/** Strings that break naive escaping, splitting or truncation. */
const NASTY = [
  "<",
  ">",
  "&",
  '"',
  "'",
  "&amp;",
  "&lt;",
  "&#39;",
  "]]>",
  "<![CDATA[",
  "</p>",
  "<script>",
  "<br>",
  "\n",
  "\n\n",
  "\n \n",
  "\r\n",
  " ",
  "\t",
  "\u00a0",
  "\u2028",
  "\u0085",
  "\ufeff",
  "é",
  "🎉",
  "👍🏽",
  "🇺🇸",
  "👩‍👩‍👧",
];

/** One unit of text: mostly printable graphemes, often a nasty string, sometimes any code point. */
const textUnit = fc.oneof(
  { arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }), weight: 4 },
  { arbitrary: fc.constantFrom(...NASTY), weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 1 },
);
const text = (maxLength: number) => fc.string({ unit: textUnit, minLength: 1, maxLength });

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&amp;": "&" };
/** Inverse of escapeHtml: exactly its five entities, `&amp;` in the same pass so `&amp;lt;` stays `&lt;`. */
const decodeEntities = (html: string) => html.replace(/&(?:lt|gt|quot|#39|amp);/g, (e) => ENTITIES[e] ?? e);

/** Characters XML 1.0 forbids (C0 controls other than tab/LF/CR, U+FFFE/U+FFFF, lone surrogates). */
const XML_ILLEGAL = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** A calendar date YYYY-MM-DD between two years, inclusive. */
const isoDate = (fromYear: number, toYear: number) =>
  fc
    .date({ min: new Date(Date.UTC(fromYear, 0, 1)), max: new Date(Date.UTC(toYear, 11, 31)), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

const addDays = (date: string, days: number) =>
  new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);

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

// ---------------------------------------------------------------------------
// Feed builders on arbitrary reviews
// ---------------------------------------------------------------------------

const business = BusinessSchema.parse(
  JSON.parse(readFileSync(new URL("./fixtures/data-small/business.json", import.meta.url), "utf8")),
);
const urls = siteUrls("https://reviews.test");

/**
 * Arbitrary reviews as ReviewSchema accepts them (its trimming applied), with catalogue references
 * from business.json, then sorted newest first as loadDataset does. `clean` maps every text field.
 */
function reviewsArb(options: { maxReviews: number; maxText: number; clean?: (s: string) => string }) {
  const clean = options.clean ?? ((s: string) => s);
  const draft = fc.record({
    date: isoDate(2009, 2026),
    rating: fc.integer({ min: 1, max: 5 }),
    title: fc.option(text(60), { nil: undefined }),
    text: text(options.maxText),
    name: text(20),
    technicians: fc.subarray(business.technicians.map((t) => t.name)),
    services: fc.subarray(business.services.map((s) => s.id)),
    area: fc.constantFrom(...business.service_areas.map((a) => a.id)),
    method: fc.constantFrom("job_record" as const, "invoice" as const, "invitation" as const),
    response: fc.option(fc.record({ after: fc.nat(30), text: text(options.maxText) }), { nil: undefined }),
    updatedAfter: fc.option(fc.nat(60), { nil: undefined }),
  });
  return fc.array(draft, { minLength: 1, maxLength: options.maxReviews }).map((drafts) => {
    const reviews: Review[] = [];
    drafts.forEach((d, i) => {
      const parsed = ReviewSchema.safeParse({
        id: `${d.date}-r${i}`,
        date: d.date,
        rating: d.rating,
        ...(d.title === undefined ? {} : { title: clean(d.title) }),
        text: clean(d.text),
        author: { name: clean(d.name) },
        verified: true,
        verification: { method: d.method },
        source: "direct",
        technicians: d.technicians,
        services: d.services,
        service_area: d.area,
        ...(d.response ? { response: { date: addDays(d.date, d.response.after), text: clean(d.response.text) } } : {}),
        ...(d.updatedAfter === undefined ? {} : { updated: addDays(d.date, d.updatedAfter) }),
      });
      // Drafts the schema rejects (e.g. a text that is only white space) cannot reach the builders.
      if (parsed.success) reviews.push(parsed.data);
    });
    return reviews.sort(compareNewestFirst);
  });
}

const datasetOf = (reviews: readonly Review[]): Dataset => ({ business, reviews, sourceSha256: "0".repeat(64) });

describe("buildJsonFeed on arbitrary reviews", () => {
  it("always passes validateJsonFeed and JsonFeedSchema, survives JSON, and escapes content_html", () => {
    fc.assert(
      fc.property(reviewsArb({ maxReviews: 8, maxText: 200 }), (reviews) => {
        const feed = buildJsonFeed(datasetOf(reviews), urls);
        expect(validateJsonFeed(feed)).toEqual([]);
        expect(JsonFeedSchema.safeParse(feed).error?.issues ?? []).toEqual([]);
        expect(JSON.parse(JSON.stringify(feed))).toEqual(feed);
        expect(feed.items.map((item) => item.id)).toEqual(
          reviews.map((r) => `tag:riverbendplumbing.example,2009:review:${r.id}`),
        );
        feed.items.forEach((item, i) => {
          const review = reviews[i] as Review;
          expect(item.content_html.replace(/<\/?(?:p|blockquote)>|<br>/g, "")).not.toMatch(/[<>]/);
          expect(item.content_html.replace(/&(?:amp|lt|gt|quot|#39);/g, "")).not.toContain("&");
          expect(item.content_text).toContain(review.text);
          expect(item.authors).toEqual([{ name: review.author.name }]);
          if (review.title !== undefined) expect(item.title).toBe(`${review.rating}/5 · ${review.title}`);
        });
      }),
      runs(100),
    );
  });

  it("keeps at most the 50 newest reviews", () => {
    fc.assert(
      fc.property(reviewsArb({ maxReviews: 70, maxText: 20 }), (reviews) => {
        const feed = buildJsonFeed(datasetOf(reviews), urls);
        expect(feed.items).toHaveLength(Math.min(50, reviews.length));
        expect(validateJsonFeed(feed)).toEqual([]);
      }),
      runs(30),
    );
  });

  // Regression: an untitled review's headline was cut at 70 UTF-16 code units, which could split a
  // surrogate pair when the first line has no space to cut at,
  // leaving a lone surrogate in the item title (invalid Unicode; shown as U+FFFD or dropped by readers).
  it("headlines of untitled reviews are well-formed Unicode (no half emoji)", () => {
    const review = ReviewSchema.parse({
      id: "2025-05-05-emoji",
      date: "2025-05-05",
      rating: 5,
      text: `A${"👍".repeat(40)}`,
      author: { name: "Emoji Fan" },
      verified: true,
      verification: { method: "job_record" },
      source: "direct",
      technicians: [],
      services: [],
      service_area: "sacramento",
    });
    const [item] = buildJsonFeed(datasetOf([review]), urls).items;
    expect(item?.title.isWellFormed()).toBe(true);
  });
});

describe("buildAtomFeed on arbitrary reviews", () => {
  const ATOM_RUNS = 20; // each run spawns xmllint twice and jing (a JVM)

  it("is always a valid Atom document (well-formed, RELAX NG, Schematron)", async () => {
    await fc.assert(
      fc.asyncProperty(
        reviewsArb({ maxReviews: 6, maxText: 200, clean: (s) => s.replace(XML_ILLEGAL, "") }),
        async (reviews) => {
          expect(await validateAtom(buildAtomFeed(datasetOf(reviews), urls))).toEqual([]);
        },
      ),
      runs(ATOM_RUNS),
    );
  }, 180_000);

  // Regression: ReviewSchema accepted control characters such as U+000B (vertical tab, common in text
  // pasted from word processors), and XML 1.0 forbids them, so one such review made feed.xml malformed.
  // The schema now rejects them, so the data check names the file.
  it("a review text with a control character is rejected where it enters, naming the character", async () => {
    const draft = {
      id: "2025-05-05-pasted",
      date: "2025-05-05",
      rating: 4,
      text: "Pasted from my notes:\u000bthe leak is fixed.",
      author: { name: "Pat" },
      verified: true,
      verification: { method: "job_record" },
      source: "direct",
      technicians: [],
      services: [],
      service_area: "sacramento",
    };
    const parsed = ReviewSchema.safeParse(draft);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["text", "must not contain invisible control characters (U+000B at character 22); retype that spot"],
    ]);
  }, 60_000);
});
