import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { DataValidationError, formatProblem } from "../src/data/problems.ts";

/** The messages for the mistakes editors make most, on a data folder with one review file. */
const dir = mkdtempSync(path.join(tmpdir(), "reviews-messages-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(path.join(dir, "reviews"));
cpSync("data/business.json", path.join(dir, "business.json"));
const R = path.join(dir, "reviews");

const good = {
  id: "2025-03-02-maria-g",
  date: "2025-03-02",
  rating: 5,
  text: "Fixed the leak.",
  author: { name: "Maria G." },
  verified: true,
  verification: { method: "invoice" },
  source: "direct",
  technicians: ["Luis O."],
  services: ["leak-detection"],
  service_area: "folsom",
};

/** Writes the one review file (raw text, or JSON of `good` with changes) and returns the problems. */
function problemsWith(content: string | Record<string, unknown>, name = "2025-03-02-maria-g.json"): string[] {
  rmSync(R, { recursive: true, force: true });
  mkdirSync(R);
  writeFileSync(path.join(R, name), typeof content === "string" ? content : JSON.stringify({ ...good, ...content }));
  try {
    loadDataset(dir, { today: "2026-01-01" });
    return [];
  } catch (error) {
    if (error instanceof DataValidationError) return error.problems.map((p) => formatProblem(p).replace(`${R}/`, ""));
    throw error;
  }
}

describe("messages for common mistakes", () => {
  it("an empty file is called empty, not a missing comma", () => {
    expect(problemsWith("")).toEqual([
      "2025-03-02-maria-g.json: (file): is empty: it must hold one JSON object; write the review into it or delete the file",
    ]);
    expect(problemsWith("\uFEFF \n")[0]).toContain("is empty");
  });

  it("a byte-order mark (Windows Notepad) is accepted", () => {
    expect(problemsWith(`\uFEFF${JSON.stringify(good, null, 2)}`)).toEqual([]);
  });

  it("a technician may be given by id; a misspelt one gets the closest name", () => {
    expect(problemsWith({ technicians: ["luis-ortega"] })).toEqual([]);
    expect(problemsWith({ technicians: ["Luis Ortga"] })).toEqual([
      '2025-03-02-maria-g.json: technicians[0]: unknown technician "Luis Ortga"; did you mean "Luis O."?',
    ]);
  });

  it("an area given by name is answered with its id; a misspelt one with the closest id", () => {
    expect(problemsWith({ service_area: "Folsom" })).toEqual([
      '2025-03-02-maria-g.json: service_area: "Folsom" is the name of the service area "folsom"; write its id "folsom"',
    ]);
    expect(problemsWith({ service_area: "Elk Grove" })).toEqual([
      '2025-03-02-maria-g.json: service_area: "Elk Grove" is the name of the service area "elk-grove"; write its id "elk-grove"',
    ]);
    expect(problemsWith({ service_area: "folsum" })).toEqual([
      '2025-03-02-maria-g.json: service_area: unknown service area "folsum"; did you mean "folsom"?',
    ]);
  });

  it("an id whose date differs from the date field says which to fix", () => {
    expect(problemsWith({ date: "2025-03-03" })).toEqual([
      "2025-03-02-maria-g.json: id: starts with the date 2025-03-02 but the review's date is 2025-03-03; fix the date, or rename the file and id to 2025-03-03-maria-g",
    ]);
  });

  it("an unknown source gets the closest known one or the list", () => {
    expect(problemsWith({ source: "gogle" })).toEqual([
      '2025-03-02-maria-g.json: source: unknown source "gogle"; did you mean "google"?',
    ]);
    expect(problemsWith({ source: "carrier_pigeon" })[0]).toContain(
      'unknown source "carrier_pigeon"; use one of "direct", "email_invitation", "sms_invitation", "google", "csv_import"',
    );
  });

  it("a rating-only review (no text) is valid", () => {
    const { text: _, ...ratingOnly } = good;
    expect(problemsWith(JSON.stringify(ratingOnly))).toEqual([]);
  });

  it("the id of a removed review is never used again", () => {
    mkdirSync(path.join(dir, "removed"), { recursive: true });
    writeFileSync(
      path.join(dir, "removed", "2025-03-02-maria-g.json"),
      JSON.stringify({ id: "2025-03-02-maria-g", removed: "2025-04-01", reason: "customer request" }),
    );
    try {
      expect(problemsWith({})).toEqual([
        '2025-03-02-maria-g.json: id: "2025-03-02-maria-g" belonged to a removed review (removed/2025-03-02-maria-g.json); ids are never reused, choose another',
      ]);
    } finally {
      rmSync(path.join(dir, "removed"), { recursive: true });
    }
  });
});
