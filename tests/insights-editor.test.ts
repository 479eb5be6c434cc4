import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AspectInsight, PolarityCounts, Topic } from "@riverbend/shared/schemas/insights.ts";
import { afterAll, describe, expect, it } from "vitest";
import { checkNumbers, type Figures } from "../src/insights/faq/check-numbers.ts";
import { generateSummary } from "../src/insights/summary/generate-summary.ts";
import { THRESHOLDS } from "../src/insights/thresholds.ts";
import { runBuild, runScript } from "./support/run-build.ts";

const counts = (positive: number, negative: number, mixed = 0, neutral = 0): PolarityCounts => ({
  mentions: positive + negative + mixed + neutral,
  positive,
  negative,
  neutral,
  mixed,
  share_positive: null,
  wilson_lower: null,
});

const figures: Figures = {
  aspects: new Map([
    ["punctuality", counts(23, 3)],
    ["price", counts(40, 10, 2)],
  ]),
  reviewCount: 120,
  reviewsWithText: 120,
};

describe("numbers in editor text", () => {
  it("names the number, the aspect and the figure it contradicts", () => {
    expect(checkNumbers("95% of punctuality mentions are positive.", figures)).toEqual([
      'says "95%" of punctuality mentions are positive, the reviews give 88% (23 of 26)',
    ]);
    expect(checkNumbers("Only 5 of 52 reviews that mention price are negative.", figures)).toEqual([
      'says "5 of 52" of price mentions are negative, the reviews give 10 of 52',
    ]);
    expect(checkNumbers("Based on 200 reviews.", figures)).toEqual(['says "200 reviews", the data has 120 reviews']);
  });

  it("accepts figures that agree, rounded or qualified", () => {
    for (const text of [
      "88% of reviews that mention punctuality are positive.",
      "23 of 26 reviews that mention punctuality are positive.",
      "Over 85% of punctuality comments are positive.",
      "About 90% say they arrived on time.",
      "52 reviews mention price.",
      "They arrived within 2 hours and charged $150.",
      "Based on 120 reviews, most customers are happy.",
    ]) {
      expect(checkNumbers(text, figures), text).toEqual([]);
    }
  });

  it("leaves numbers without an aspect word or a review noun alone", () => {
    expect(checkNumbers("We have served 5000 customers since 2009.", figures)).toEqual([]);
  });
});

const aspect = (id: AspectInsight["id"], c: PolarityCounts): AspectInsight => ({
  id,
  label: id,
  description: id,
  ...c,
  mention_rate: 0.5,
  trend: { granularity: "quarter", points: [] },
  evidence: { positive: [], negative: [], neutral: [], mixed: [] },
});

const topic = (id: string, aspects: AspectInsight["id"][], negative: number, text: string): Topic => ({
  id,
  phrase: id.replace(/-/g, " "),
  aspects,
  reviews: negative + 2,
  positive: 2,
  negative,
  neutral: 0,
  mixed: 0,
  quotes: [
    {
      review_id: `r-${id}`,
      url: `https://x.test/reviews/r-${id}/`,
      date: "2025-05-01",
      rating: 1,
      text,
      start: 0,
      end: text.length,
      polarity: "negative",
      aspect: aspects[0] as AspectInsight["id"],
    },
  ],
  review_ids: [`r-${id}`],
});

describe("generated summary", () => {
  const range = { count: 120, first: "2024-01-02", last: "2025-05-12" };

  it("names every concern by its share of negative reviews, with its denominator and mixed counted", () => {
    const aspects = [
      aspect("quality", counts(60, 4)),
      aspect("punctuality", counts(10, 14, 2)),
      aspect("price", counts(30, 8)),
    ];
    const summary = generateSummary(aspects, [], range, THRESHOLDS);
    // Punctuality first: 14 of 26 negative beats price's 8 of 38; quality (4 of 64) is below the share.
    expect(summary.text).toContain(
      "The main concerns, by share of negative reviews: Punctuality: 14 of 26 reviews that mention punctuality are negative, and 2 mixed. Price: 8 of 38 reviews that mention price are negative.",
    );
    expect(summary.text).not.toContain("Quality of work:");
    expect(checkNumbers(summary.text, { ...figures, aspects: new Map(aspects.map((a) => [a.id, a])) })).toEqual([]);
  });

  it("says what the complaints are about, grouped by topic, each backed by a quote", () => {
    const aspects = [aspect("price", counts(20, 9)), aspect("quality", counts(40, 1))];
    const topics = [
      topic("quote-vs-bill", ["price"], 6, "The final bill was $400 over the quote."),
      topic("fees", ["price"], 3, "Nobody mentioned the $95 trip fee."),
      topic("clean-up", ["cleanliness"], 5, "Mud everywhere."),
    ];
    const summary = generateSummary(aspects, topics, range, THRESHOLDS);
    expect(summary.text).toContain("The complaints are mostly about quote vs bill (6 reviews) and fees (3 reviews).");
    expect(summary.evidence.map((q) => q.text)).toEqual(
      expect.arrayContaining(["The final bill was $400 over the quote.", "Nobody mentioned the $95 trip fee."]),
    );
    expect(summary.text).not.toContain("clean up");
  });

  it("says so when no concern passes the threshold", () => {
    const summary = generateSummary([aspect("quality", counts(60, 2))], [], range, THRESHOLDS);
    expect(summary.text).toContain("No aspect is judged negatively in 3 or more reviews.");
  });
});

describe("editor files in the build", () => {
  const work = mkdtempSync(path.join(tmpdir(), "insights-editor-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("publishes when a literal number contradicts the figures, and data:check reports the same warning and passes", async () => {
    const dist = path.join(work, "dist-faq");
    const env = {
      DATA_DIR: "tests/fixtures/insights-faq-contradiction",
      DIST_DIR: dist,
      SITE_URL: "https://reviews.test",
    };
    const warning =
      /warning: tests\/fixtures\/insights-faq-contradiction\/insights\/faq\.json: faq\[1\]\.answer: says "95%" of punctuality mentions are positive, the reviews give \d+% \(\d+ of \d+\)/;
    const check = await runScript("scripts/check-data.ts", [], env);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toMatch(warning);
    expect(check.stdout).toContain("1 warning for the editor");
    const run = await runBuild(env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(warning);
  });

  it("fills placeholders at build time, so a new review changes the figures and breaks nothing", async () => {
    const data = path.join(work, "data-placeholders");
    cpSync("tests/fixtures/insights-faq-contradiction", data, { recursive: true });
    const faq = {
      faq: [
        {
          id: "on-time",
          question: "Do they show up on time?",
          answer: "{punctuality.positive} of {punctuality.mentions} reviews that mention punctuality are positive.",
          aspect: "punctuality",
        },
      ],
    };
    writeFileSync(path.join(data, "insights", "faq.json"), JSON.stringify(faq));
    const review = JSON.parse(readFileSync(path.join(data, "reviews", "2025-05-12-hal-b.json"), "utf8"));
    writeFileSync(
      path.join(data, "reviews", "2025-05-20-ivy-l.json"),
      JSON.stringify({
        ...review,
        id: "2025-05-20-ivy-l",
        date: "2025-05-20",
        text: "He was two hours late and never called.",
      }),
    );
    const env = { DATA_DIR: data, DIST_DIR: path.join(work, "dist-placeholders"), SITE_URL: "https://reviews.test" };
    const check = await runScript("scripts/check-data.ts", [], env);
    expect(check.code, check.stderr).toBe(0);
    const run = await runBuild(env);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(work, "dist-placeholders", "insights.json"), "utf8"));
    const punctuality = doc.aspects.find((a: { id: string }) => a.id === "punctuality");
    expect(punctuality.negative).toBeGreaterThan(0);
    expect(doc.faq[0].answer).toBe(
      `${punctuality.positive} of ${punctuality.mentions} reviews that mention punctuality are positive.`,
    );
  });

  it("rejects an unknown placeholder in data:check and in the build, naming the file and field", async () => {
    const data = path.join(work, "data-bad-placeholder");
    cpSync("tests/fixtures/insights-faq-contradiction", data, { recursive: true });
    writeFileSync(
      path.join(data, "insights", "faq.json"),
      JSON.stringify({ faq: [{ id: "x", question: "Q?", answer: "{punctuality.late} of them." }] }),
    );
    const env = { DATA_DIR: data, DIST_DIR: path.join(work, "dist-bad"), SITE_URL: "https://reviews.test" };
    for (const run of [await runScript("scripts/check-data.ts", [], env), await runBuild(env)]) {
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("faq.json: faq[0].answer: unknown placeholder {punctuality.late}");
    }
  });

  it("publishes a stale editor summary with a warning in the build log", async () => {
    const dist = path.join(work, "dist-summary");
    const run = await runBuild({
      DATA_DIR: "tests/fixtures/insights-stale-summary",
      DIST_DIR: dist,
      SITE_URL: "https://reviews.test",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "warning: tests/fixtures/insights-stale-summary/insights/summary.json: as_of: the summary is as of 2025-04-30 but the newest review is dated 2025-05-12",
    );
  });
});
