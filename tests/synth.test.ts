import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { runScript } from "./support/run-build.ts";

const work = mkdtempSync(path.join(tmpdir(), "reviews-synth-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function synth(out: string, seed: string) {
  const run = await runScript("scripts/synth.ts", ["--reviews", "300", "--out", out, "--seed", seed]);
  expect(run.code, run.stderr).toBe(0);
  const dir = path.join(out, "reviews");
  return readdirSync(dir)
    .sort()
    .map((name) => `${name}\n${readFileSync(path.join(dir, name), "utf8")}`);
}

describe("npm run data:synth", () => {
  it("is deterministic for a seed, differs between seeds, and writes valid data", async () => {
    const a = await synth(path.join(work, "a"), "7");
    const b = await synth(path.join(work, "b"), "7");
    const c = await synth(path.join(work, "c"), "8");
    expect(a).toHaveLength(300);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    const dataset = loadDataset(path.join(work, "a"), { today: "2026-11-01" });
    expect(dataset.reviews).toHaveLength(300);
    expect(new Set(dataset.reviews.map((r) => r.rating)).size).toBe(5);
  });

  it("explains its usage when arguments are missing", async () => {
    const run = await runScript("scripts/synth.ts", ["--reviews", "ten"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("usage: npm run data:synth -- --reviews N --out DIR");
  });
});
