import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyOfData, filesIn, IMPORT_FIXTURES, readJson, runEditor } from "./support/editor-commands.ts";
import { runBuild } from "./support/run-build.ts";

/** reviews:import as `npm run` runs it, on fixture files and a copy of data/. */
const data = copyOfData();
afterAll(() => data.remove());
const CSV = path.join(IMPORT_FIXTURES, "reviews-awkward.csv");
const GOOGLE = path.join(IMPORT_FIXTURES, "google-export.json");
const JOBS = path.join(IMPORT_FIXTURES, "jobs.csv");

describe("npm run reviews:import -- FILE.csv", () => {
  it("reads a CSV with a BOM, headers in any case, quoted multi-line text and several date forms", async () => {
    const run = await runEditor("reviews-import", [CSV, "--data", data.dir]);
    expect(run.stdout).toContain("note: columns ignored (not in the documented list): Notes");
    expect(run.stdout).toContain("added    line 2: 2025-03-02-maria-g, draft, lacks verification");
    expect(run.stdout).toContain("added    line 4: 2025-03-15-sean-o, draft, lacks verification");
    expect(run.stdout).toContain("added    line 5: 2025-03-20-priya-k, draft, lacks verification");
    expect(run.stdout).toContain("added    line 11: 2025-04-06-bo-c, draft, lacks verification");
    expect(run.stdout).toContain("4 added (0 published, 4 drafts), 0 duplicates skipped, 4 refused.");
    const maria = readJson(path.join(data.dir, "drafts/2025-03-02-maria-g.json"));
    expect(maria).toMatchObject({
      text: 'Water heater died on a Sunday.\nLuis had it running by noon, and explained the "anode rod" thing.',
      author: { name: "Maria G.", locality: "Folsom" },
      source: "csv_import",
      source_id: "CSV-001",
      technicians: ["Luis O."],
      services: ["water-heater-repair"],
      service_area: "folsom",
      response: { date: "2025-03-02", text: "Thank you, Maria!" },
    });
    expect(maria).not.toHaveProperty("verified");
    // "3" stars and no text: a rating-only review is allowed.
    expect(readJson(path.join(data.dir, "drafts/2025-03-20-priya-k.json"))).not.toHaveProperty("text");
  });

  it("says why each refused row was refused, by line, and exits 1", async () => {
    const run = await runEditor("reviews-import", [CSV, "--data", data.dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('refused  line 6: rating "7" is not a whole number of stars from 1 to 5');
    expect(run.stdout).toContain(
      "refused  line 7: the author is not a name (an e-mail address or phone number is never published)",
    );
    expect(run.stdout).toContain('refused  line 8: date "not a date" is not a date');
    expect(run.stdout).toContain('refused  line 9: unknown technician "Chris"; did you mean "Chris M."?');
  });

  it("adds nothing when the same file is imported again", async () => {
    const before = filesIn(path.join(data.dir, "drafts"));
    const run = await runEditor("reviews-import", [CSV, "--data", data.dir]);
    expect(run.stdout).toContain("0 added (0 published, 0 drafts), 4 duplicates skipped, 4 refused.");
    expect(run.stdout).toContain("skipped  line 2: already imported (source id CSV-001)");
    expect(filesIn(path.join(data.dir, "drafts"))).toEqual(before);
  });
});

describe("npm run reviews:import -- EXPORT.json --jobs JOBS.csv", () => {
  it("reads a Business Profile export in the business's local dates and verifies the reviews a job matches", async () => {
    const run = await runEditor("reviews-import", [GOOGLE, "--jobs", JOBS, "--data", data.dir]);
    expect(run.stdout).toContain("added    review AbFvOqm1: 2025-05-02-derek-o, published (verified by job J-5001)");
    // Lena P.'s only job was 128 days before her review: outside the window, so it stays a draft.
    expect(run.stdout).toContain(
      "added    review AbFvOqm2: 2025-05-10-lena-p, draft, lacks verification, service_area",
    );
    expect(run.stdout).toContain(
      "added    review AbFvOqm3: 2025-05-12-google-user, draft, lacks verification, service_area",
    );
    expect(run.stdout).toContain(
      'refused  review AbFvOqm4: starRating: must be ONE, TWO, THREE, FOUR or FIVE (got "SIX")',
    );
    expect(run.stdout).toMatch(/data:check: .* OK, 273 published reviews\./);
    expect(readJson(path.join(data.dir, "reviews/2025-05-02-derek-o.json"))).toEqual({
      id: "2025-05-02-derek-o",
      // 02:15 UTC on 3 May is the evening of 2 May in Sacramento.
      date: "2025-05-02",
      rating: 5,
      text: "Kevin replaced our garbage disposal the same afternoon. Clean work.",
      author: { name: "Derek O." },
      verified: true,
      verification: { method: "job_record", reference: "J-5001" },
      source: "google",
      source_id: "AbFvOqm1",
      technicians: ["Kevin T."],
      services: ["garbage-disposal"],
      service_area: "rancho-cordova",
      response: { date: "2025-05-04", text: "Thanks Derek!" },
    });
    // The customer's own words, not Google's translation.
    expect(readJson(path.join(data.dir, "drafts/2025-05-12-google-user.json")).text).toBe("Llegaron tarde.");
  });

  it("lists every draft and what it lacks in data:check", async () => {
    const run = await runEditor("check-data", [data.dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("6 drafts (not published):");
    expect(run.stdout).toMatch(/drafts\/2025-05-10-lena-p\.json: lacks verification, service_area; .* --area AREA/);
    expect(run.stdout).toContain("    service_area: is required");
  });
});

describe("a removed imported review", () => {
  it("is not imported again, and after a build it is in no document, with a noindex 'removed' page and 410 rules; a rating-only review is published", async () => {
    const id = "2025-05-02-derek-o";
    const removed = await runEditor("review-remove", [
      id,
      "--data",
      data.dir,
      "--reason",
      "customer request",
      "--date",
      "2025-06-01",
    ]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(readJson(path.join(data.dir, `removed/${id}.json`))).toMatchObject({
      source: "google",
      source_id: "AbFvOqm1",
    });
    const again = await runEditor("reviews-import", [GOOGLE, "--jobs", JOBS, "--data", data.dir]);
    expect(again.stdout).toContain("skipped  review AbFvOqm1: already imported (source id AbFvOqm1)");

    // A rating-only review verified by hand is published with the same build.
    const ratingOnly = "2025-03-20-priya-k";
    const verify = await runEditor("review-verify", [ratingOnly, "--data", data.dir, "--method", "invoice"]);
    expect(verify.code, verify.stderr).toBe(0);

    const dist = path.join(path.dirname(data.dir), "dist");
    const build = await runBuild({ DATA_DIR: data.dir, DIST_DIR: dist, SITE_URL: "https://reviews.test" });
    expect(build.code, build.stderr).toBe(0);
    const page = readFileSync(path.join(dist, `reviews/${id}/index.html`), "utf8");
    expect(page).toContain('<meta name="robots" content="noindex">');
    expect(page).toContain('This review was removed on <time datetime="2025-06-01">2025-06-01</time>.');
    expect(page).not.toContain("garbage disposal");
    for (const document of ["reviews.json", "api/feed.json", "feed.xml", "sitemap.xml", "reviews/index.html"]) {
      expect(readFileSync(path.join(dist, document), "utf8"), document).not.toContain(id);
    }
    const published = JSON.parse(readFileSync(path.join(dist, "reviews.json"), "utf8")) as {
      reviews: { id: string; rating: number; text?: string }[];
    };
    expect(published.reviews.find((r) => r.id === ratingOnly)).toMatchObject({ rating: 3 });
    expect(published.reviews.find((r) => r.id === ratingOnly)).not.toHaveProperty("text");
    expect(readFileSync(path.join(dist, `reviews/${ratingOnly}/index.html`), "utf8")).toContain(
      'aria-label="3 out of 5 stars"',
    );
    // Left out of the text analysis: the insights never quote or count it.
    expect(readFileSync(path.join(dist, "insights.json"), "utf8")).not.toContain(ratingOnly);
    expect(readFileSync(path.join(dist, "_headers"), "utf8")).toContain(`/reviews/${id}/\n  X-Robots-Tag: noindex`);
    const nginx = readFileSync(path.join(dist, "nginx-removed.conf"), "utf8");
    expect(nginx).toContain(`location = /reviews/${id}/ {`);
    expect(nginx).toContain(`error_page 410 /reviews/${id}/index.html;`);
    expect(existsSync(path.join(dist, "build-manifest.json"))).toBe(true);
    expect(readFileSync(path.join(dist, "build-manifest.json"), "utf8")).not.toContain("nginx-removed.conf");
  });
});
