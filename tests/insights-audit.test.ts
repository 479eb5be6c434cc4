/**
 * The audit sheet (issue 13 point 4): every published quote is in the pool, a seed always draws the same
 * sample without repeats, and the command writes a sheet with one row per drawn quote.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type InsightsDocument, InsightsDocumentSchema } from "@riverbend/shared/schemas/insights.ts";
import { describe, expect, inject, it } from "vitest";
import { auditSheet, drawSample } from "../src/insights/audit/audit-sheet.ts";
import { publishedQuotes } from "../src/insights/audit/published-quotes.ts";

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

  describe("--reviews FILE.jsonl: the pool is what the analyser would publish for that file's reviews", () => {
    const tsx = path.join("node_modules", ".bin", "tsx");
    const dir = mkdtempSync(path.join(tmpdir(), "audit-reviews-"));
    const lines = [
      { id: "pool-1", rating: 5, text: "Marco showed up right on time and left the bathroom spotless." },
      { id: "pool-2", rating: 1, text: "He was two hours late and never called to say so. Rude on the phone too." },
      { id: "pool-3", rating: 2, text: "The final bill was $300 over the written quote and nobody explained why." },
      { id: "pool-4", rating: 5, text: "Fair price, friendly tech, and the leak is gone for good." },
      { id: "pool-5", rating: 4, text: "Quick to answer the phone, and the new faucet works great.", aspects: {} },
    ];
    const file = path.join(dir, "reviews.jsonl");
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n"));
    const run = (...args: string[]) =>
      spawnSync(tsx, ["scripts/insights-audit.ts", "--seed", "5", ...args], { encoding: "utf8" });

    it("draws only quotes of the file's reviews and shows their text", () => {
      const out = path.join(dir, "sheet.md");
      const ok = run("--sample", "60", "--reviews", file, "--out", out);
      expect(ok.status, ok.stderr).toBe(0);
      expect(ok.stdout).toContain(`of the 5 reviews in ${file}`);
      const sheet = readFileSync(out, "utf8");
      const ids = [...sheet.matchAll(/^\| \d+ \| [a-z]+ \| [a-z]+ \| .* \| \[([^\]]+)\]/gm)].map((m) => m[1]);
      expect(ids.length).toBeGreaterThanOrEqual(3);
      for (const id of ids) expect(lines.map((l) => l.id)).toContain(id);
      expect(sheet).not.toContain("(review not found)");
      expect(sheet).toContain("left the bathroom spotless");
    });

    it("names the file, line and field of a bad line, and a file it cannot read", () => {
      const bad = path.join(dir, "bad.jsonl");
      writeFileSync(bad, `${JSON.stringify(lines[0])}\n{"id": "x", "rating": 9, "text": "ok"}\n`);
      const wrong = run("--reviews", bad, "--out", path.join(dir, "no.md"));
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toContain(`${bad}:2: rating:`);
      const missing = run("--reviews", path.join(dir, "absent.jsonl"), "--out", path.join(dir, "no.md"));
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain("absent.jsonl: cannot be read (ENOENT)");
    });
  });
});
