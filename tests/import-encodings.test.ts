import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyOfData, filesIn, IMPORT_FIXTURES, readJson, runEditor } from "./support/editor-commands.ts";

/** reviews:import on files saved in the encodings spreadsheets offer, in a copy of data/. */
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
