import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyOfData, filesIn, IMPORT_FIXTURES, readJson, runEditor } from "./support/editor-commands.ts";

/** reviews:import on files as editors bring them (encodings, wrong paths, nearly empty), in a copy of data/. */
const data = copyOfData();
afterAll(() => data.remove());

describe("npm run reviews:import and the file's encoding", () => {
  it("says that a file or jobs file it cannot find cannot be read, without a stack trace", async () => {
    const missing = path.join(IMPORT_FIXTURES, "no-such-file.csv");
    const run = await runEditor("reviews-import", [missing, "--data", data.dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`refused  ${missing}: cannot be read: file not found`);
    const jobs = await runEditor("reviews-import", [
      path.join(IMPORT_FIXTURES, "reviews-awkward.csv"),
      "--jobs",
      missing,
      "--data",
      data.dir,
    ]);
    expect(jobs.stdout).toContain(`refused  ${missing}: cannot be read: file not found; nothing was imported`);
    expect(`${run.stderr}${jobs.stderr}`).not.toMatch(/ENOENT|at .*\.ts/);
    expect(filesIn(path.join(data.dir, "drafts"))).toEqual([]);
  });

  it("refuses a Windows-1252 CSV (Excel's plain CSV) with how to save it, instead of importing garbled names", async () => {
    const file = path.join(IMPORT_FIXTURES, "reviews-windows-1252.csv");
    const run = await runEditor("reviews-import", [file, "--data", data.dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`refused  ${file}: is not UTF-8 text; in Excel save it with "CSV UTF-8`);
    expect(run.stdout).toContain("0 added");
    expect(filesIn(path.join(data.dir, "drafts"))).toEqual([]);
  });

  it("refuses the same file given as --jobs and imports nothing", async () => {
    const jobs = path.join(IMPORT_FIXTURES, "reviews-windows-1252.csv");
    const run = await runEditor("reviews-import", [
      path.join(IMPORT_FIXTURES, "reviews-awkward.csv"),
      "--jobs",
      jobs,
      "--data",
      data.dir,
    ]);
    expect(run.stdout).toContain(`refused  ${jobs}: is not UTF-8 text;`);
    expect(run.stdout).toContain("nothing was imported");
    expect(filesIn(path.join(data.dir, "drafts"))).toEqual([]);
  });

  it("reads UTF-16 with its byte-order mark (Excel's Unicode Text, tab separated)", async () => {
    const run = await runEditor("reviews-import", [
      path.join(IMPORT_FIXTURES, "reviews-unicode-text.txt"),
      "--data",
      data.dir,
    ]);
    expect(run.stdout).toContain("added    line 2: 2026-11-02-zoe-a, draft");
    expect(readJson(path.join(data.dir, "drafts/2026-11-02-zoe-a.json"))).toMatchObject({
      text: 'Quick, tidy; fixed the "drip"',
      author: { name: "Zoë Å." },
    });
  });
});

describe("npm run reviews:import on nearly empty files", () => {
  it("takes a Business Profile export of a location without reviews (no reviews field) as empty, not as another JSON", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "reviews-import-"));
    const file = path.join(dir, "reviews.json");
    writeFileSync(file, '{ "averageRating": 0, "totalReviewCount": 0 }\n');
    const run = await runEditor("reviews-import", [file, "--data", data.dir]);
    rmSync(dir, { recursive: true, force: true });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain("note: the export holds no reviews");
    expect(run.stdout).toContain("0 added (0 published, 0 drafts), 0 duplicates skipped, 0 refused.");
  });

  it("refuses a CSV row without a rating as having no rating", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "reviews-import-"));
    const file = path.join(dir, "reviews.csv");
    writeFileSync(file, "Date,Rating,Name,Review\r\n11/03/2026,,Ann Lee,Came quickly\r\n");
    const run = await runEditor("reviews-import", [file, "--data", data.dir]);
    rmSync(dir, { recursive: true, force: true });
    expect(run.stdout).toContain("refused  line 2: no rating");
  });
});

describe("npm run reviews:import and the headers spreadsheets use", () => {
  it("reads an Owner Response column as the reply and drops a title before the name", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "reviews-import-"));
    const file = path.join(dir, "reviews.csv");
    writeFileSync(
      file,
      "Review Date,Stars,Customer Name,Comments,Owner Response,Owner Response Date\r\n2026-11-12,3,Dr. Jane Roe-Smith,ok,Thanks Jane!,2026-11-13\r\n",
    );
    const run = await runEditor("reviews-import", [file, "--data", data.dir]);
    rmSync(dir, { recursive: true, force: true });
    expect(run.stdout).not.toContain("columns ignored");
    expect(run.stdout).toContain("added    line 2: 2026-11-12-jane-r, draft");
    expect(readJson(path.join(data.dir, "drafts/2026-11-12-jane-r.json"))).toMatchObject({
      author: { name: "Jane R." },
      response: { date: "2026-11-13", text: "Thanks Jane!" },
    });
  });
});
