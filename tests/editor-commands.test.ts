import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { todayIn } from "../src/data/load-dataset.ts";
import { copyOfData, filesIn, readJson, runEditor } from "./support/editor-commands.ts";

/** review:add, review:verify and review:remove run as `npm run` runs them, on a copy of data/. */
const data = copyOfData();
afterAll(() => data.remove());
const today = todayIn("America/Los_Angeles");

describe("npm run review:add with flags (standard input not a terminal)", () => {
  it("accepts names, ids and close misspellings, derives the id, writes the file and runs data:check", async () => {
    const run = await runEditor("review-add", [
      ...["--data", data.dir, "--date", "2025-03-02", "--rating", "5", "--author", "maria garcia"],
      ...["--text", "Water heater fixed by noon.", "--technicians", "luis-ortega, Chris Morneo"],
      ...["--services", "Water heater repair", "--area", "Folsom", "--method", "invoice", "--reference", "INV-2231"],
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/data:check: .* OK, 273 published reviews\./);
    expect(readJson(path.join(data.dir, "reviews/2025-03-02-maria-g.json"))).toEqual({
      id: "2025-03-02-maria-g",
      date: "2025-03-02",
      rating: 5,
      text: "Water heater fixed by noon.",
      author: { name: "Maria G." },
      verified: true,
      verification: { method: "invoice", reference: "INV-2231" },
      source: "direct",
      technicians: ["Luis O.", "Chris M."],
      services: ["water-heater-repair"],
      service_area: "folsom",
    });
  });

  it("never asks and says which flags are missing; an ambiguous name gets the closest, nothing is written", async () => {
    const run = await runEditor("review-add", ["--data", data.dir, "--technicians", "Chris", "--rating", "9"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--author is required when nothing is asked (no terminal)");
    expect(run.stderr).toContain("--area is required");
    expect(run.stderr).toContain("--rating: the rating is a whole number of stars from 1 to 5");
    expect(run.stderr).toContain('--technicians: unknown technician "Chris"; did you mean "Chris M."?');
    expect(run.stdout).not.toContain("?:");
    expect(filesIn(path.join(data.dir, "drafts"))).toEqual([]);
  });

  it("gives the next free id when the same author reviews on the same day", async () => {
    const args = [
      "--data",
      data.dir,
      "--date",
      "2025-03-02",
      "--rating",
      "4",
      "--author",
      "Maria G.",
      "--area",
      "davis",
    ];
    const run = await runEditor("review-add", [...args, "--method", "invitation"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("reviews/2025-03-02-maria-g-2.json");
  });
});

describe("npm run review:add asking questions", () => {
  it("saves nothing and says why when standard input ends before the last question (Ctrl-D)", async () => {
    const before = filesIn(path.join(data.dir, "reviews"));
    const run = await runEditor("review-add", ["--data", data.dir, "--interactive"], "2025-04-11\n5\n");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Not saved: standard input ended before every question was answered.");
    expect(run.stderr).not.toMatch(/\bat .*prompter\.ts/);
    expect(filesIn(path.join(data.dir, "reviews"))).toEqual(before);
  });

  it("asks for each field, offers the catalogues as numbered choices, re-asks a wrong answer", async () => {
    const answers = [
      "2025-04-10",
      "lots",
      "4",
      "Quick fix",
      "First paragraph.",
      ".",
      "Second paragraph.",
      "",
      "Jo Smith",
      "Davis",
      "1, priya",
      "leak detection",
      "Elk Grove",
      "job_record",
      "J-77",
      "",
      "",
    ];
    const run = await runEditor("review-add", ["--data", data.dir, "--interactive"], `${answers.join("\n")}\n`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Rating (1-5 stars): ");
    expect(run.stdout).toContain("the rating is a whole number of stars from 1 to 5");
    expect(run.stdout).toContain(" 4. Luis O. (luis-ortega)");
    expect(run.stdout).toContain(" 3. Folsom (folsom)");
    const review = readJson(path.join(data.dir, "reviews/2025-04-10-jo-s.json"));
    expect(review).toMatchObject({
      rating: 4,
      title: "Quick fix",
      text: "First paragraph.\n\nSecond paragraph.",
      author: { name: "Jo S.", locality: "Davis" },
      technicians: ["Dana W.", "Priya N."],
      services: ["leak-detection"],
      service_area: "elk-grove",
      verification: { method: "job_record", reference: "J-77" },
    });
  });
});

describe("drafts: npm run review:add without verification, data:check, npm run review:verify", () => {
  it("keeps an unverified review out of the published set and lists what it lacks", async () => {
    const add = await runEditor("review-add", [
      ...["--data", data.dir, "--rating", "3", "--author", "Lee Park", "--area", "roseville"],
    ]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain("Saved as a draft (not published until verified)");
    expect(existsSync(path.join(data.dir, `drafts/${today}-lee-p.json`))).toBe(true);
    const check = await runEditor("check-data", ["--data", data.dir]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain("1 draft (not published):");
    expect(check.stdout).toContain(
      `drafts/${today}-lee-p.json: lacks verification; complete it with npm run review:verify -- ${today}-lee-p`,
    );
  });

  it("verifies a draft by hand and publishes it", async () => {
    const id = `${today}-lee-p`;
    const missing = await runEditor("review-verify", [id, "--data", data.dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--method is required");
    const run = await runEditor("review-verify", [
      id,
      "--data",
      data.dir,
      "--method",
      "invoice",
      "--reference",
      "INV-9",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Verified by invoice INV-9");
    expect(filesIn(path.join(data.dir, "drafts"))).toEqual([]);
    expect(readJson(path.join(data.dir, `reviews/${id}.json`))).toMatchObject({
      verified: true,
      verification: { method: "invoice", reference: "INV-9" },
      service_area: "roseville",
    });
  });

  it("says which --method is wrong, and keeps the recorded reference when the same method is given again", async () => {
    const id = `${today}-lee-p`;
    const wrong = await runEditor("review-verify", [id, "--data", data.dir, "--method", "phone"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--method phone: the method is job_record, invoice or invitation");
    const again = await runEditor("review-verify", [id, "--data", data.dir, "--method", "invoice", "--area", "Davis"]);
    expect(again.code, again.stderr).toBe(0);
    expect(readJson(path.join(data.dir, `reviews/${id}.json`))).toMatchObject({
      verification: { method: "invoice", reference: "INV-9" },
      service_area: "davis",
    });
  });
});

describe("npm run review:remove", () => {
  it("needs a reason, takes the review down, keeps its id and source id reserved", async () => {
    const id = "2025-03-02-maria-g";
    const noReason = await runEditor("review-remove", [id, "--data", data.dir]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain("--reason are required");
    const typo = await runEditor("review-remove", ["2025-03-02-maria-x", "--data", data.dir, "--reason", "x"]);
    expect(typo.stderr).toContain("did you mean 2025-03-02-maria-g?");
    for (const [date, message] of [
      ["2999-01-01", "--date: 2999-01-01 is in the future"],
      ["2025-03-01", "--date: 2025-03-01 is before the review's date 2025-03-02"],
    ]) {
      const wrong = await runEditor("review-remove", [id, "--data", data.dir, "--reason", "x", "--date", date ?? ""]);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain(message);
      expect(existsSync(path.join(data.dir, `reviews/${id}.json`))).toBe(true);
    }
    const run = await runEditor("review-remove", [
      id,
      "--data",
      data.dir,
      "--reason",
      "customer request",
      "--date",
      "2025-06-01",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(path.join(data.dir, `reviews/${id}.json`))).toBe(false);
    expect(readJson(path.join(data.dir, `removed/${id}.json`))).toEqual({
      id,
      removed: "2025-06-01",
      reason: "customer request",
      source: "direct",
    });
    const again = await runEditor("review-add", [
      ...["--data", data.dir, "--date", "2025-03-02", "--rating", "5", "--author", "Maria G.", "--area", "folsom"],
      ...["--method", "invoice"],
    ]);
    expect(again.stdout).toContain("reviews/2025-03-02-maria-g-3.json");
    expect(readFileSync(path.join(data.dir, `removed/${id}.json`), "utf8")).toMatch(/\n$/);
  });
});
