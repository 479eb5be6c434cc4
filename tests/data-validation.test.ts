import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { DataValidationError, formatProblem } from "../src/data/problems.ts";
import { runBuild, runScript } from "./support/run-build.ts";

const BROKEN = "tests/fixtures/data-broken";
const R = `${BROKEN}/reviews`;

function problemsOf(dir: string, today = "2026-11-01"): string[] {
  try {
    loadDataset(dir, { today });
  } catch (error) {
    if (error instanceof DataValidationError) return error.problems.map(formatProblem);
    throw error;
  }
  throw new Error(`${dir} validated, but problems were expected`);
}

describe("data validation messages", () => {
  const problems = problemsOf(BROKEN);

  it("names the file, the field, what was wrong and how to fix it, for every problem in one run", () => {
    expect(problems).toEqual([
      `${R}/2025-02-30-bad-date.json: date: must be a real calendar date written YYYY-MM-DD, e.g. 2025-03-02, got "2025-02-30"`,
      `${R}/2025-02-30-bad-date.json: technicians[0]: unknown technician "Luiz O."; did you mean "Luis O."?`,
      `${R}/2025-02-30-bad-date.json: services[0]: unknown service "drain-cleanin"; did you mean "drain-cleaning"?`,
      expect.stringContaining(
        `${R}/2025-02-30-bad-date.json: service_area: unknown service area "atlantis"; use one of "sacramento",`,
      ),
      `${R}/2025-03-02-maria-g.json: rating: must be a whole number from 1 to 5, got 6`,
      `${R}/2025-04-01-typo.json: ratting: unknown field; did you mean "rating"?`,
      `${R}/2025-05-01-renamed.json: verification.method: must be one of job_record, invoice, invitation, got "phone_call"`,
      `${R}/2025-05-01-renamed.json: id: must equal the file name "2025-05-01-renamed", got "2025-04-01-typo"; rename the file or fix the id`,
      `${R}/2025-05-01-renamed.json: id: starts with the date 2025-04-01 but the review's date is 2025-05-01; fix the date, or rename the file and id to 2025-05-01-typo`,
      `${R}/2025-05-01-renamed.json: response.date: must be on or after the review date 2025-05-01, got "2025-04-20"`,
      `${R}/2025-05-01-renamed.json: id: "2025-04-01-typo" is already used by ${R}/2025-04-01-typo.json; ids are never reused`,
      expect.stringMatching(
        /^tests\/fixtures\/data-broken\/reviews\/2025-06-01-broken-json\.json: \(file\): is not valid JSON: .*line 4 column 3.*; check for a missing comma or quote$/,
      ),
      `${R}/2025-07-01-missing.json: verified: must be true: only verified reviews are published, got false`,
      `${R}/2099-01-01-future.json: date: must not be in the future (today is 2026-11-01), got "2099-01-01"`,
      `${R}/notes.txt: (file): is not a .json file: review files must be named <id>.json`,
    ]);
  });

  it("rejects impossible calendar dates and dates after today", () => {
    expect(problems.some((p) => p.includes('got "2025-02-30"'))).toBe(true);
    expect(problemsOf(BROKEN, "2098-12-31").some((p) => p.includes("must not be in the future"))).toBe(true);
  });
});

describe("catalogue rules in business.json", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "reviews-business-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reports duplicate catalogue ids, a technician reviewed before joining, and a bad time zone", () => {
    const business = JSON.parse(readFileSync("data/business.json", "utf8"));
    business.services.push({ ...business.services[0] });
    business.time_zone = "Mars/Olympus_Mons";
    mkdirSync(path.join(dir, "reviews"));
    writeFileSync(path.join(dir, "business.json"), JSON.stringify(business));
    const review = JSON.parse(readFileSync("tests/fixtures/data-broken/reviews/2025-03-02-maria-g.json", "utf8"));
    writeFileSync(
      path.join(dir, "reviews", "2020-05-05-early.json"),
      JSON.stringify({ ...review, id: "2020-05-05-early", date: "2020-05-05", rating: 5, technicians: ["Chris A."] }),
    );
    const found = problemsOf(dir);
    expect(found).toContainEqual(expect.stringMatching(/business\.json: time_zone: must be an IANA time zone/));
    // With the time zone broken the business does not parse, so fix it and look for the rest.
    business.time_zone = "America/Los_Angeles";
    writeFileSync(path.join(dir, "business.json"), JSON.stringify(business));
    const more = problemsOf(dir);
    expect(more).toContainEqual(
      expect.stringMatching(/business\.json: services\[13\]\.id: duplicates services\[0\]\.id "drain-cleaning"/),
    );
    expect(more).toContainEqual(
      expect.stringMatching(
        /2020-05-05-early\.json: technicians\[0\]: Chris A\. joined in 2023, after this review's date/,
      ),
    );
  });
});

describe("npm run data:check and npm run build on broken data", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "reviews-broken-build-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("data:check exits 1 and prints every problem", async () => {
    const run = await runScript("scripts/check-data.ts", [BROKEN]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("The data does not validate (15 problems)");
    expect(run.stderr).toContain(`${R}/2025-03-02-maria-g.json: rating: must be a whole number from 1 to 5, got 6`);
  });

  it("data:check passes on the sample data", async () => {
    const run = await runScript("scripts/check-data.ts", ["data"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/data: OK, \d+ reviews of Riverbend Plumbing & Drain\./);
  });

  it("a failed build leaves the previous output untouched", async () => {
    const dist = path.join(dir, "dist");
    mkdirSync(dist);
    writeFileSync(path.join(dist, "index.html"), "previous build");
    const run = await runBuild({ DATA_DIR: BROKEN, DIST_DIR: dist, SITE_URL: "https://reviews.test" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("rating: must be a whole number from 1 to 5, got 6");
    expect(run.stderr).toContain("the previous build output is unchanged");
    expect(readFileSync(path.join(dist, "index.html"), "utf8")).toBe("previous build");
  });
});
