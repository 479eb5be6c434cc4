/**
 * The home page's pure parts: the SVG charts, the formatters, the schema.org JSON-LD and the page shell. The built
 * page is checked in tests/home-page.test.ts and in a real browser in tests/browser/site-home.test.ts.
 */
import { readFileSync } from "node:fs";
import { type InsightsDocument, InsightsDocumentSchema } from "@riverbend/shared/schemas/insights.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { aggregateRating } from "../src/reviews-document/aggregate.ts";
import { aspectChart } from "../src/site/charts/aspect-chart.ts";
import { distributionRows, ratingDistributionChart } from "../src/site/charts/rating-distribution.ts";
import { starRatingSvg } from "../src/site/charts/star-rating.ts";
import { displayDays, displayPhone, displayTime } from "../src/site/home/business.ts";
import { displayDate } from "../src/site/home/dates.ts";
import { jsonLdScript, plumberJsonLd } from "../src/site/jsonld/plumber.ts";
import { pageShell } from "../src/site/render/page-shell.ts";

const fixture: InsightsDocument = InsightsDocumentSchema.parse(
  JSON.parse(readFileSync(new URL("./fixtures/insights-home.json", import.meta.url), "utf8")),
);
const dataset = loadDataset("data");
const urls = siteUrls("https://reviews.test");
const aggregate = aggregateRating(dataset.reviews);
const shown = dataset.reviews.slice(0, 6);
const head = jsonLdScript(plumberJsonLd({ business: dataset.business, aggregate, reviews: shown, urls }));

/** The JSON of every JSON-LD script in some HTML. */
function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) =>
    JSON.parse(m[1] as string),
  );
}

const count = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].length;

describe("charts", () => {
  it("draws the rating distribution as a labelled SVG image with a table of the same figures", () => {
    const html = ratingDistributionChart({ "1": 1, "2": 0, "3": 1, "4": 2, "5": 6 });
    expect(html).toMatch(/<svg [^>]*role="img"[^>]*aria-labelledby="rating-distribution-title"/);
    expect(html).toContain(`<title id="rating-distribution-title">Rating distribution of 10 reviews</title>`);
    expect(html).toContain("5 stars: 6 (60%), 4 stars: 2 (20%), 3 stars: 1 (10%), 2 stars: 0 (0%), 1 stars: 1 (10%)");
    expect(html).toContain(`<tr><th scope="row">5 stars</th><td>6</td><td>60%</td></tr>`);
    expect(html).toContain(`<tr><th scope="row">1 star</th><td>1</td><td>10%</td></tr>`);
    // One bar per non-empty rating; the longest is the largest count and fills the track.
    expect(count(html, /class="chart-bar /g)).toBe(4);
    expect(html).toMatch(/x="44" y="[\d.]+" width="192" height="14" rx="3" class="chart-bar r5"/);
    expect(html).toMatch(/width="32" height="14" rx="3" class="chart-bar r1"/);
    expect(html).not.toContain("chart-bar r2");
  });

  it("handles no reviews at all without dividing by zero", () => {
    const rows = distributionRows({ "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 });
    expect(rows.every((row) => row.share === 0)).toBe(true);
    expect(ratingDistributionChart({ "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 })).not.toContain("NaN");
  });

  it("fills stars to the fraction of the rating", () => {
    const svg = starRatingSvg(4.08, "s");
    expect(svg).toContain(`aria-label="Rated 4.08 out of 5"`);
    expect(svg).toContain(`<stop offset="81.6%" class="star-on"/><stop offset="81.6%" class="star-off"/>`);
    expect(starRatingSvg(7, "t")).toContain(`offset="100%"`);
  });

  it("gives each aspect its share with explicit counts, and no share below the threshold", () => {
    const html = aspectChart(fixture.aspects);
    expect(html).toMatch(/<svg [^>]*role="img"/);
    expect(html).toContain(">92% · 23 of 25</text>");
    expect(html).toContain(">too few to rate</text>");
    // The positive part of a bar is its share of the full width (320).
    expect(html).toMatch(/width="294.4" height="12" rx="3" class="chart-pos"/);
    expect(html).toContain("Punctuality: 92% (23 of 25 positive), 31 mentions");
    expect(html).toContain("Cleanliness: too few to rate, 4 mentions");
    expect(html).toContain(`<tr><th scope="row">Price</th><td>36</td><td>9</td><td>80%</td><td>48</td></tr>`);
  });
});

describe("formatting for people", () => {
  it("formats days, times, phone numbers and dates for people", () => {
    expect(displayDays(["Mo", "Tu", "We", "Th", "Fr"])).toBe("Mon–Fri");
    expect(displayDays(["Sa", "Mo", "Su"])).toBe("Mon, Sat, Sun");
    expect(displayDays(["Mo", "Tu", "Th"])).toBe("Mon, Tue, Thu");
    expect(displayTime("00:00")).toBe("12 am");
    expect(displayTime("12:30")).toBe("12:30 pm");
    expect(displayTime("18:05")).toBe("6:05 pm");
    expect(displayPhone("+1-916-555-0142")).toBe("(916) 555-0142");
    expect(displayPhone("+44 20 7946 0958")).toBe("+44 20 7946 0958");
    expect(displayDate("2026-01-05")).toBe("January 5, 2026");
  });
});

describe("schema.org JSON-LD", () => {
  const [data] = jsonLd(head);

  it("describes the business as a Plumber with address, geo, areas, hours and the aggregate rating", () => {
    expect(data).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Plumber",
      "@id": "https://reviews.test/#business",
      name: "Riverbend Plumbing & Drain",
      telephone: "+1-916-555-0142",
      url: "https://www.riverbendplumbing.example",
      address: { "@type": "PostalAddress", streetAddress: "4120 Folsom Boulevard, Suite B", postalCode: "95819" },
      geo: { "@type": "GeoCoordinates", latitude: 38.5616, longitude: -121.4453 },
      aggregateRating: {
        "@type": "AggregateRating",
        ratingValue: aggregate.rating_value,
        reviewCount: dataset.reviews.length,
        bestRating: 5,
        worstRating: 1,
      },
    });
    expect(data?.areaServed).toHaveLength(dataset.business.service_areas.length);
    expect(data?.openingHoursSpecification).toEqual([
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"].map((d) => `https://schema.org/${d}`),
        opens: "07:00",
        closes: "18:00",
      },
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["https://schema.org/Saturday"],
        opens: "08:00",
        closes: "14:00",
      },
    ]);
  });

  it("names exactly the reviews the page shows, in its order, each with a permalink", () => {
    const reviews = data?.review as { "@id": string; reviewRating: { ratingValue: number }; reviewBody: string }[];
    expect(reviews.map((r) => r["@id"])).toEqual(shown.map((r) => urls.permalink(r.id)));
    shown.forEach((review, i) => {
      expect(reviews[i]?.reviewRating.ratingValue).toBe(review.rating);
      expect(reviews[i]?.reviewBody).toBe(review.text);
    });
  });

  it("cannot be closed early by review text", () => {
    const script = jsonLdScript({ text: "</script><script>alert(1)</script>\u2028" });
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(script.slice(script.indexOf(">") + 1, -"</script>".length))).toEqual({
      text: "</script><script>alert(1)</script>\u2028",
    });
  });

  it("leaves aggregateRating out when there are no reviews", () => {
    const empty = plumberJsonLd({
      business: dataset.business,
      aggregate: aggregateRating([]),
      reviews: [],
      urls,
    });
    expect(empty).not.toHaveProperty("aggregateRating");
    expect(empty.review).toEqual([]);
  });
});

describe("the page shell", () => {
  const shell = (canonical: string) =>
    pageShell({ title: "T & co", description: "D", canonical, businessName: "B", urls });

  it("has the canonical URL, Open Graph tags and both feed links in <head>", () => {
    const { start } = shell("https://reviews.test/reviews/");
    const head = start.slice(0, start.indexOf("</head>"));
    expect(head).toContain(`<link rel="canonical" href="https://reviews.test/reviews/">`);
    expect(head).toContain(`<meta property="og:url" content="https://reviews.test/reviews/">`);
    expect(head).toContain(`<meta property="og:title" content="T &amp; co">`);
    expect(head).toContain(`<meta property="og:description" content="D">`);
    expect(head).toContain(`<meta property="og:type" content="website">`);
    expect(head).toContain(`<meta property="og:site_name" content="B">`);
    expect(head).toContain(`type="application/atom+xml" title="Reviews (Atom)" href="https://reviews.test/feed.xml"`);
    expect(head).toContain(
      `type="application/feed+json" title="Reviews (JSON Feed)" href="https://reviews.test/api/feed.json"`,
    );
  });

  it("has a skip link, the site navigation with the current page marked, and one main landmark", () => {
    const home = shell("https://reviews.test/");
    expect(home.start).toContain(`<a class="skip-link" href="#main">`);
    expect(home.start).toContain(`<a href="/" aria-current="page">Home</a>`);
    expect(home.start).toContain(`<a href="/reviews/">Reviews</a>`);
    expect(home.start).toContain(`<a href="/api/">API</a>`);
    expect(count(home.start + home.end, /<main /g)).toBe(1);
    const permalink = shell("https://reviews.test/reviews/2026-11-20-howard-l/");
    expect(permalink.start).toContain(`<a href="/reviews/" aria-current="true">Reviews</a>`);
    expect(permalink.start).toContain(`<a href="/">Home</a>`);
  });
});
