import { readFileSync } from "node:fs";
import { BusinessSchema } from "@riverbend/shared/schemas/business.ts";
import { describe, expect, it } from "vitest";
import type { DataProblem } from "../src/data/problems.ts";
import { formatProblem } from "../src/data/problems.ts";
import { loadEditorData } from "../src/insights/editor/load-editor-data.ts";

const business = BusinessSchema.parse(JSON.parse(readFileSync("data/business.json", "utf8")));

describe("editor files of the insights", () => {
  it("reports every malformed field by file and field, as the data folder does", () => {
    const problems: DataProblem[] = [];
    loadEditorData(".", "tests/fixtures/insights-bad-editor", business, problems);
    const dir = "tests/fixtures/insights-bad-editor/insights";
    expect(problems.map(formatProblem)).toEqual([
      `${dir}/entities.json: technicians.bill-hadly: no entry of business.json technicians has the id "bill-hadly"; known ids are ${business.technicians.map((t) => t.id).join(", ")}`,
      `${dir}/faq.json: faq[0].answer: is required: add it (must be text)`,
      `${dir}/faq.json: faq[0].answr: unknown field; did you mean "answer"?`,
      `${dir}/summary.json: as_of: must be a real calendar date written YYYY-MM-DD, e.g. 2025-03-02, got "2025-02-30"`,
    ]);
  });

  it("reads the sample's editor files without a problem", () => {
    const problems: DataProblem[] = [];
    const data = loadEditorData(".", "data", business, problems);
    expect(problems).toEqual([]);
    expect(data.topics.topics.map((t) => t.id)).toEqual(
      expect.arrayContaining(["arrival-window", "quote-vs-bill", "emergency-line", "upselling", "shoe-covers"]),
    );
  });
});
