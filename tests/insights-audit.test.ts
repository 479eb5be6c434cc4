/**
 * The audit sheet (issue 13 point 4): every published quote is in the pool, a seed always draws the same
 * sample without repeats, and the command writes a sheet with one row per drawn quote.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { auditSheet, drawSample } from "../src/insights/audit/audit-sheet.ts";
import { publishedQuotes } from "../src/insights/audit/published-quotes.ts";
import { type InsightsDocument, InsightsDocumentSchema } from "../src/schemas/insights.ts";

describe("insights audit", () => {
  const document: InsightsDocument = InsightsDocumentSchema.parse(
    JSON.parse(readFileSync(path.join(inject("sampleDist"), "insights.json"), "utf8")),
  );
  const pool = publishedQuotes(document);

  it("pools every quote the aspects, FAQ, summary and topics publish, each once", () => {
    const aspectQuotes = document.aspects.flatMap((a) => Object.values(a.evidence).flat());
    const keys = new Set(
      pool.map((p) => `${p.quote.review_id}|${p.quote.start}|${p.quote.aspect}|${p.quote.polarity}`),
    );
    const topicQuotes = document.topics.flatMap((t) => t.quotes);
    for (const q of [
      ...aspectQuotes,
      ...document.faq.flatMap((f) => f.evidence),
      ...document.summary.evidence,
      ...topicQuotes,
    ]) {
      expect(keys.has(`${q.review_id}|${q.start}|${q.aspect}|${q.polarity}`)).toBe(true);
    }
    expect(keys.size).toBe(pool.length);
  });

  it("draws the same quotes for the same seed, without repeats, and other quotes for another seed", () => {
    const a = drawSample(pool, 20, 7);
    expect(drawSample(pool, 20, 7)).toEqual(a);
    expect(new Set(a).size).toBe(20);
    expect(drawSample(pool, 20, 8)).not.toEqual(a);
    expect(drawSample(pool, pool.length + 5, 1)).toHaveLength(pool.length);
  });

  it("writes one row per quote with aspect, polarity, quote and review link, and the reviews' text", () => {
    const drawn = drawSample(pool, 5, 3);
    const sheet = auditSheet(drawn, { seed: 3, poolSize: pool.length, asOf: "2026-01-01", method: "m" }, () => "T");
    const rows = sheet.split("\n").filter((l) => /^\| \d+ \|/.test(l));
    expect(rows).toHaveLength(5);
    drawn.forEach((d, i) => {
      expect(rows[i]).toContain(`| ${d.quote.aspect} | ${d.quote.polarity} |`);
      expect(rows[i]).toContain(`(${d.quote.url})`);
    });
    expect(sheet).toContain(`### ${drawn[0]?.quote.review_id}`);
  });

  it("runs as a command and rejects a missing seed", () => {
    const tsx = path.join("node_modules", ".bin", "tsx");
    const out = path.join(mkdtempSync(path.join(tmpdir(), "audit-")), "sheet.md");
    const ok = spawnSync(tsx, ["scripts/insights-audit.ts", "--sample", "10", "--seed", "4", "--out", out], {
      encoding: "utf8",
    });
    expect(ok.status).toBe(0);
    expect(
      readFileSync(out, "utf8")
        .split("\n")
        .filter((l) => /^\| \d+ \|/.test(l)),
    ).toHaveLength(10);
    const bad = spawnSync(tsx, ["scripts/insights-audit.ts", "--sample", "10"], { encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--seed must be a whole number");
  });
});
