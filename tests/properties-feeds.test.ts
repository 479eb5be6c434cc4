/**
 * Property tests (fast-check) for both feed builders on arbitrary review texts, titles and author
 * names. Seed and generators: support/properties-arbitraries.ts. The regression tests at the end of
 * each block pin bugs these properties found (now fixed).
 */
import { readFileSync } from "node:fs";
import { BusinessSchema } from "@riverbend/shared/schemas/business.ts";
import { compareNewestFirst, type Dataset } from "@riverbend/shared/schemas/dataset.ts";
import { JsonFeedSchema } from "@riverbend/shared/schemas/json-feed.ts";
import { type Review, ReviewSchema } from "@riverbend/shared/schemas/review.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAtomFeed } from "../src/feeds/atom/build.ts";
import { buildJsonFeed } from "../src/feeds/json-feed/build.ts";
import { validateAtom } from "./support/feed-validators-atom.ts";
import { validateJsonFeed } from "./support/feed-validators-json-feed.ts";
import { isoDate, runs, text } from "./support/properties-arbitraries.ts";

/** Characters XML 1.0 forbids (C0 controls other than tab/LF/CR, U+FFFE/U+FFFF, lone surrogates). */
const XML_ILLEGAL = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const addDays = (date: string, days: number) =>
  new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);

const business = BusinessSchema.parse(
  JSON.parse(readFileSync(new URL("./fixtures/data-small/business.json", import.meta.url), "utf8")),
);
const urls = siteUrls("https://reviews.test");

/** A review's input as an editor would write it, unparsed, for the regression tests' one-off reviews. */
const draft = (fields: { id: string; text: string; author: { name: string }; rating?: number }) => ({
  date: "2025-05-05",
  rating: 4,
  verified: true,
  verification: { method: "job_record" },
  source: "direct",
  technicians: [],
  services: [],
  service_area: "sacramento",
  ...fields,
});

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
    // Rating-only reviews (no text) are published too.
    text: fc.option(text(options.maxText), { nil: undefined, freq: 8 }),
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
        ...(d.text === undefined ? {} : { text: clean(d.text) }),
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

const datasetOf = (reviews: readonly Review[]): Dataset => ({
  business,
  reviews,
  removed: [],
  sourceSha256: "0".repeat(64),
});

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
          expect(item.content_text).toContain(review.text ?? `${review.rating}/5 by ${review.author.name}`);
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
    const review = ReviewSchema.parse(
      draft({ id: "2025-05-05-emoji", rating: 5, text: `A${"👍".repeat(40)}`, author: { name: "Emoji Fan" } }),
    );
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
    const parsed = ReviewSchema.safeParse(
      draft({
        id: "2025-05-05-pasted",
        text: "Pasted from my notes:\u000bthe leak is fixed.",
        author: { name: "Pat" },
      }),
    );
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["text", "must not contain invisible control characters (U+000B at character 22); retype that spot"],
    ]);
  }, 60_000);
});
