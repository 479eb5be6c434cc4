import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyOfData, IMPORT_FIXTURES, readJson, runEditor } from "./support/editor-commands.ts";

/** reviews:import run twice on a copy of data/: first without the job records, then with them. */
const data = copyOfData();
afterAll(() => data.remove());
const CSV = path.join(IMPORT_FIXTURES, "reviews-awkward.csv");
const JOBS = path.join(IMPORT_FIXTURES, "jobs.csv");

describe("npm run reviews:import -- FILE --jobs JOBS.csv after FILE was imported without jobs", () => {
  it("verifies the drafts of the earlier import that a job matches and publishes them", async () => {
    const first = await runEditor("reviews-import", [CSV, "--data", data.dir]);
    expect(first.stdout).toContain("added    line 2: 2025-03-02-maria-g, draft, lacks verification");

    const again = await runEditor("reviews-import", [CSV, "--jobs", JOBS, "--data", data.dir]);
    expect(again.stdout).toContain("verified line 2: draft 2025-03-02-maria-g matches job J-5003, published");
    expect(again.stdout).toContain(
      "0 added (0 published, 0 drafts), 1 earlier drafts verified by a job, 3 duplicates skipped, 4 refused.",
    );
    expect(again.stdout).toMatch(/data:check: .* OK, 273 published reviews\./);
    expect(existsSync(path.join(data.dir, "drafts/2025-03-02-maria-g.json"))).toBe(false);
    expect(readJson(path.join(data.dir, "reviews/2025-03-02-maria-g.json"))).toMatchObject({
      id: "2025-03-02-maria-g",
      verified: true,
      verification: { method: "job_record", reference: "J-5003" },
      source: "csv_import",
      source_id: "CSV-001",
      response: { date: "2025-03-02", text: "Thank you, Maria!" },
    });
  });

  it("adds and verifies nothing more the third time", async () => {
    const run = await runEditor("reviews-import", [CSV, "--jobs", JOBS, "--data", data.dir]);
    expect(run.stdout).toContain("0 added (0 published, 0 drafts), 4 duplicates skipped, 4 refused.");
  });
});
