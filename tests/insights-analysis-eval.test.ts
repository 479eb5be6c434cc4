/**
 * The evaluation scorer: detection and polarity figures checked by hand, the labelled-file reader's
 * errors, and the insights-eval command on the smoke file.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AspectPolarity, LabelledReview, ReviewAnalysis } from "@riverbend/shared/schemas/analysis.ts";
import { describe, expect, it } from "vitest";
import { evaluate } from "../src/insights/eval/evaluate.ts";
import { count, scores, total } from "../src/insights/eval/metrics.ts";
import { LabelledFileError, parseLabelled } from "../src/insights/eval/read-labelled.ts";
import { analyzer } from "./support/insights-analysis-fixture.ts";

describe("evaluation scorer", () => {
  const gold: LabelledReview[] = [
    { id: "r1", text: "a", aspects: { punctuality: "positive", price: "negative" } },
    { id: "r2", text: "b", aspects: { quality: "mixed" } },
    { id: "r3", text: "c", aspects: {} },
  ];
  const judged = (aspect: string, polarity: AspectPolarity) => ({
    aspect,
    polarity,
    evidence: [{ start: 0, end: 1, polarity: "positive", cue: "x", score: 1 }],
  });
  const predicted = [
    {
      aspects: [judged("punctuality", "positive"), judged("price", "positive"), judged("cleanliness", "negative")],
      suspected_sarcasm: [],
    },
    { aspects: [judged("quality", "mixed")], suspected_sarcasm: [] },
    { aspects: [judged("communication", "positive")], suspected_sarcasm: [] },
  ] as ReviewAnalysis[];

  it("computes detection and polarity figures by hand", () => {
    // tp 3 (r1 punctuality, r1 price, r2 quality), fp 2 (r1 cleanliness, r3 communication), fn 0.
    // Polarity right on punctuality and quality: 2/3. Polar calls: punctuality (right), price (wrong): 1/2.
    const s = scores(total(count(gold, predicted)), 3);
    expect(s.precision).toBeCloseTo(0.6);
    expect(s.recall).toBeCloseTo(1);
    expect(s.f1).toBeCloseTo(0.75);
    expect(s.polarity_accuracy).toBeCloseTo(2 / 3);
    expect(s.polar_precision).toBeCloseTo(0.5);
  });

  it("counts a missed pair against recall only", () => {
    const byAspect = count(gold, [
      { aspects: [], suspected_sarcasm: [] },
      predicted[1],
      predicted[2],
    ] as ReviewAnalysis[]);
    expect(byAspect.get("punctuality")).toMatchObject({ tp: 0, fp: 0, fn: 1 });
    const s = scores(total(byAspect), 3);
    expect(s.recall).toBeCloseTo(1 / 3);
    expect(s.precision).toBeCloseTo(0.5);
  });

  it("evaluates the real analyser on the smoke file", () => {
    const smoke = parseLabelled(readFileSync("tests/fixtures/insights/smoke.jsonl", "utf8"), "smoke.jsonl");
    const e = evaluate(analyzer, smoke);
    expect(e.overall).toEqual({
      n: 3,
      precision: 1,
      recall: 1,
      f1: 1,
      polarity_accuracy: 1,
      polar_precision: 1,
      opposite_rate: 0,
    });
  });

  it("names the file and line of a malformed line", () => {
    const bad = '{"id":"a","text":"ok","aspects":{}}\n{"id":"b","text":"x","aspects":{"speed":"positive"}}\n';
    expect(() => parseLabelled(bad, "bad.jsonl")).toThrow(LabelledFileError);
    expect(() => parseLabelled(bad, "bad.jsonl")).toThrow(/^bad\.jsonl:2: /);
    expect(() => parseLabelled("\n{not json\n", "f.jsonl")).toThrow(/^f\.jsonl:2: not valid JSON/);
  });

  it("runs as a command: table then one JSON line, or a clear error and exit 1", () => {
    const tsx = path.join("node_modules", ".bin", "tsx");
    const ok = spawnSync(tsx, ["scripts/insights-eval.ts", "tests/fixtures/insights/smoke.jsonl"], {
      encoding: "utf8",
    });
    expect(ok.status).toBe(0);
    const lines = ok.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^aspect/);
    expect(JSON.parse(lines.at(-1) as string)).toEqual({
      n: 3,
      precision: 1,
      recall: 1,
      f1: 1,
      polarity_accuracy: 1,
      polar_precision: 1,
      opposite_rate: 0,
    });
    const dir = mkdtempSync(path.join(tmpdir(), "eval-"));
    const file = path.join(dir, "bad.jsonl");
    writeFileSync(file, '{"id":"a","text":"ok","aspects":{}}\n{"id":"","text":"x","aspects":{}}\n');
    const bad = spawnSync(tsx, ["scripts/insights-eval.ts", file], { encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(`${file}:2:`);
  });
});

describe("insights:eval --predictions", () => {
  it("writes one line per review with the predicted polarity of each judged aspect, absent ones left out", () => {
    const tsx = path.join("node_modules", ".bin", "tsx");
    const out = path.join(mkdtempSync(path.join(tmpdir(), "pred-")), "p.jsonl");
    const run = spawnSync(
      tsx,
      ["scripts/insights-eval.ts", "tests/fixtures/insights/smoke.jsonl", "--predictions", out],
      {
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(0);
    const gold = parseLabelled(readFileSync("tests/fixtures/insights/smoke.jsonl", "utf8"), "smoke.jsonl");
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(gold.map((g) => g.id));
    // The smoke file scores 1.0, so each line equals its label exactly.
    expect(lines.map((l) => l.aspects)).toEqual(gold.map((g) => g.aspects));
  });
});
