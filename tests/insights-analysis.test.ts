import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAnalyzer, lexiconHash, loadLexicon } from "../src/insights/analysis/analyze-review.ts";
import { compileScanner } from "../src/insights/analysis/keyword-scanner.ts";
import { requiredKeywords } from "../src/insights/analysis/prefilter.ts";
import { evaluate } from "../src/insights/eval/evaluate.ts";
import { count, scores, total } from "../src/insights/eval/metrics.ts";
import { LabelledFileError, parseLabelled } from "../src/insights/eval/read-labelled.ts";
import type { AspectPolarity, LabelledReview, ReviewAnalysis } from "../src/schemas/analysis.ts";
import { ReviewAnalysisSchema } from "../src/schemas/analysis.ts";

const loaded = loadLexicon();
const analyzer = createAnalyzer(loaded.lexicon);

function aspects(text: string, rating?: number): Record<string, AspectPolarity> {
  return Object.fromEntries(analyzer.analyze(text, rating).aspects.map((a) => [a.aspect, a.polarity]));
}

describe("aspect analysis: hard cases", () => {
  it("flips judgements under negation", () => {
    expect(aspects("He wasn't late and there were no hidden fees.")).toEqual({
      punctuality: "positive",
      price: "positive",
    });
    expect(aspects("Not cheap.")).toEqual({ price: "negative" });
    expect(aspects("He didn't try to upsell me.")).toEqual({ professionalism: "positive" });
    expect(aspects("No shoe covers, and mud across the carpet.")).toEqual({ cleanliness: "negative" });
  });

  it("reads contrast per clause", () => {
    expect(aspects("Pricey but worth it.")).toEqual({ price: "mixed" });
    expect(aspects("About 45 min past the window but he called ahead.")).toEqual({
      punctuality: "negative",
      communication: "positive",
    });
    expect(aspects("The office was rude, but the plumber was friendly.")).toEqual({ professionalism: "mixed" });
  });

  it("finds implicit judgements", () => {
    expect(aspects("The window was 8-12 and he came at 3.")).toEqual({ punctuality: "negative" });
    expect(aspects("The final bill was almost double the quote.")).toEqual({ price: "negative" });
    expect(aspects("Called at 7am and he was here by 9:30.")).toEqual({ responsiveness: "positive" });
    expect(aspects("Two days later it was running again.")).toEqual({ quality: "negative" });
  });

  it("covers cue families, not single phrasings", () => {
    expect(aspects("The technician was courteous and never pushy.")).toEqual({ professionalism: "positive" });
    expect(aspects("He talked down to me the whole visit.")).toEqual({ professionalism: "negative" });
    expect(aspects("She walked us through the options before starting.")).toEqual({ communication: "positive" });
    expect(aspects("He texted when he was on his way.")).toEqual({ communication: "positive" });
    expect(aspects("Nobody told us about the disposal fee.")).toEqual({ communication: "negative", price: "negative" });
    expect(aspects("They charged twice what the other company quoted.")).toEqual({ price: "negative" });
    expect(aspects("They got us in the same week.")).toEqual({ responsiveness: "positive" });
    expect(aspects("The shower works fine now.")).toEqual({ quality: "positive" });
    expect(aspects("The leak under the vanity was back within a week.")).toEqual({ quality: "negative" });
  });

  it("reads the condition of a counterfactual as unmet", () => {
    expect(aspects("Would've been five stars if he had been on time.")).toEqual({ punctuality: "negative" });
  });

  it("makes no claim from a description of the customer's problem", () => {
    expect(aspects("Our basement flooded and the drain was clogged.")).toEqual({});
    expect(aspects("He found a bad thermocouple and a cracked flange.")).toEqual({});
  });

  it("abstains without a judgement, and on overall verdicts", () => {
    expect(aspects("He gave us a quote for the repipe.")).toEqual({});
    expect(aspects("Highly recommend! Kevin was great.")).toEqual({});
  });

  it("keeps cheap/clean conditioned on the aspect", () => {
    expect(aspects("Clean install.")).toEqual({ quality: "positive" });
    expect(aspects("Quick, clean, fair.")).toEqual({
      responsiveness: "positive",
      price: "positive",
      cleanliness: "positive",
    });
  });

  it("flags praise in a 1-star review as suspected sarcasm and does not count it", () => {
    const text = "The line works. Congratulations, great job on the install.";
    const low = analyzer.analyze(text, 1);
    expect(low.suspected_sarcasm).toHaveLength(1);
    expect(text.slice(low.suspected_sarcasm[0]?.start, low.suspected_sarcasm[0]?.end)).toContain("Congratulations");
    // "The line works." is a stated outcome, not praise: only the ironic clause is left out.
    const quality = low.aspects.find((a) => a.aspect === "quality");
    expect(quality?.evidence.map((e) => text.slice(e.start, e.end))).toEqual(["The line works."]);
    const high = analyzer.analyze(text, 5);
    expect(high.suspected_sarcasm).toEqual([]);
    expect(high.aspects.find((a) => a.aspect === "quality")?.polarity).toBe("positive");
  });

  it("does not take honest praise in a 1-star review for sarcasm", () => {
    const r = analyzer.analyze("Chris himself was polite and professional. But that pricing is out of line.", 1);
    expect(r.suspected_sarcasm).toEqual([]);
    expect(Object.fromEntries(r.aspects.map((a) => [a.aspect, a.polarity]))).toEqual({
      price: "negative",
      professionalism: "positive",
    });
  });
});

describe("aspect analysis: general rules of 1.2.0", () => {
  it("compares the arrival time with the promised window or appointment", () => {
    expect(aspects("Window was 8 to 10. He showed up at 1.")).toEqual({ punctuality: "negative" });
    expect(aspects("They said sometime between 12 and 5. He got here at 6:15.")).toEqual({ punctuality: "negative" });
    expect(aspects("Was told 1-3pm, he was there at 1:05.")).toEqual({ punctuality: "positive" });
    expect(aspects("The window was 10-12 and he pulled up at 10:05.")).toEqual({ punctuality: "positive" });
    expect(aspects("He was here at 7:58 for an 8:00 appointment.")).toEqual({ punctuality: "positive" });
  });

  it("compares the final bill with the quote", () => {
    expect(aspects("They quoted $289 on the phone and the invoice was $612.")).toEqual({ price: "negative" });
    expect(aspects("The quote was $1,200 and the final bill was $1,200.")).toEqual({ price: "positive" });
  });

  it("does not credit this business with what another one did", () => {
    expect(aspects("We had a handyman flush it and it's been fine since.")).toEqual({});
    expect(aspects("Ended up going with another company who came out in an hour.")).toEqual({});
  });

  it("reads a worry or a purpose as no judgement", () => {
    expect(aspects("Was worried it would be a huge mess, but they vacuumed after.")).toEqual({
      cleanliness: "positive",
    });
    expect(aspects("They called the next day to make sure everything was still working.")).toEqual({
      communication: "positive",
    });
  });

  it("lets an opinion word follow a conditioned word to the aspect it resolved to", () => {
    expect(aspects("Nice neat work.")).toEqual({ quality: "positive" });
  });

  it("covers lead times, recurrences and make-goods phrased in other words", () => {
    expect(aspects("The first available appointment was over a week out.")).toEqual({ responsiveness: "negative" });
    expect(aspects("Booked a repipe two weeks out.")).toEqual({});
    expect(aspects("It took them four days to call me back.")).toEqual({ responsiveness: "negative" });
    expect(aspects("The new faucet already has a drip after two weeks.")).toEqual({ quality: "negative" });
    expect(aspects("The toilet doesn't run anymore.")).toEqual({ quality: "positive" });
    expect(aspects("Charged me for a part he never replaced.")).toEqual({ price: "negative" });
    expect(aspects("The price didn't change.")).toEqual({ price: "positive" });
    expect(aspects("He didn't leave a mess.")).toEqual({ cleanliness: "positive" });
    expect(aspects("Talked us through the options.")).toEqual({ communication: "positive" });
    expect(aspects("He was a little gruff.")).toEqual({ professionalism: "negative" });
  });
});

const SENTENCES = readdirSync("data/reviews")
  .slice(0, 120)
  .flatMap((f) =>
    (JSON.parse(readFileSync(path.join("data/reviews", f), "utf8")).text as string).split(/(?<=[.!?])\s+/),
  )
  .filter((s) => s.length > 0);

describe("aspect analysis: evidence spans", () => {
  it("quotes exact, trimmed substrings of any text built from review sentences", () => {
    const text = fc
      .tuple(
        fc.array(fc.constantFrom(...SENTENCES), { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom(" ", "\n\n", "  ", "\n"), { minLength: 8, maxLength: 8 }),
        fc.constantFrom("", " ", "\n"),
      )
      .map(([sentences, gaps, lead]) => lead + sentences.map((s, i) => s + gaps[i]).join(""));
    fc.assert(
      fc.property(text, fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }), (t, rating) => {
        const r = ReviewAnalysisSchema.parse(analyzer.analyze(t, rating));
        const spans = [...r.aspects.flatMap((a) => a.evidence), ...r.suspected_sarcasm];
        for (const { start, end } of spans) {
          expect(start).toBeGreaterThanOrEqual(0);
          expect(end).toBeLessThanOrEqual(t.length);
          const quote = t.slice(start, end);
          expect(quote.length).toBeGreaterThan(0);
          expect(quote).toBe(quote.trim());
        }
        for (const a of r.aspects) {
          const polarities = new Set(a.evidence.map((e) => e.polarity));
          const expected = polarities.size > 1 ? "mixed" : [...polarities][0];
          expect(a.polarity).toBe(expected);
        }
      }),
      { numRuns: 200, seed: 42 },
    );
  });

  it("quotes whole clauses, without the contrast marker", () => {
    const text = "Kevin was polite, but the price was steep.";
    const r = analyzer.analyze(text);
    const quotes = r.aspects.flatMap((a) => a.evidence.map((e) => text.slice(e.start, e.end)));
    expect(quotes.sort()).toEqual(["Kevin was polite", "the price was steep."]);
  });
});

describe("idiom keyword prefilter", () => {
  const unfiltered = createAnalyzer(loaded.lexicon, { prefilter: false });
  const rules = loaded.lexicon.idioms.rules;

  it("derives keywords every match must contain", () => {
    expect(requiredKeywords("\\bno apology\\b")).toEqual([["no apology"]]);
    expect(requiredKeywords("\\b(?:was|were) (?:late|behind)")).toContainEqual(["behind", "late"]);
    // Optional parts, classes and lookarounds add nothing; a pattern with no usable literal always runs.
    expect(requiredKeywords("(?:very )?cheap(?! parts)")).toEqual([["cheap"]]);
    expect(requiredKeywords("\\d+ ?(?:x|y)")).toBeNull();
    expect(requiredKeywords("(a)\\1")).toBeNull();
    // Every rule of the lexicon is understood and gets a filter (a null would be safe, only slow).
    for (const r of rules) expect(requiredKeywords(r.regex), r.id).not.toBeNull();
  });

  it("finds exactly the keywords a substring search finds", () => {
    const keywords = ["call back", "back", "ack", "never", "a", "$5"];
    const scanner = compileScanner(keywords);
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z $5]{0,40}$/), fc.constantFrom(...SENTENCES), (noise, sentence) => {
        const text = `${noise}${sentence.toLowerCase()}`;
        const present = new Uint8Array(keywords.length);
        scanner.scan(text, present);
        expect([...present]).toEqual(keywords.map((k) => (text.includes(k) ? 1 : 0)));
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it("passes every rule on its own example, and each rule's keywords occur wherever the rule matches", () => {
    const texts = [...rules.map((r) => r.example.toLowerCase()), ...SENTENCES.map((s) => s.toLowerCase())];
    for (const r of rules) {
      const regex = new RegExp(r.regex, "u");
      const clauses = requiredKeywords(r.regex) ?? [];
      for (const t of texts) {
        if (!regex.test(t)) continue;
        for (const clause of clauses)
          expect(
            clause.some((k) => t.includes(k)),
            `${r.id}: ${t}`,
          ).toBe(true);
      }
    }
  });

  it("never changes a result: same analysis with and without it on real review text", () => {
    const reviews = readdirSync("data/reviews").map(
      (f) => JSON.parse(readFileSync(path.join("data/reviews", f), "utf8")) as { text: string; rating: number },
    );
    for (const r of reviews) expect(analyzer.analyze(r.text, r.rating)).toEqual(unfiltered.analyze(r.text, r.rating));
    const text = fc
      .tuple(fc.array(fc.constantFrom(...SENTENCES), { minLength: 1, maxLength: 6 }), fc.boolean())
      .map(([sentences, lower]) => (lower ? sentences.join(" ").toLowerCase() : sentences.join(" ")));
    fc.assert(
      fc.property(text, fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }), (t, rating) => {
        expect(analyzer.analyze(t, rating)).toEqual(unfiltered.analyze(t, rating));
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});

describe("aspect analysis: determinism and the lexicon", () => {
  it("gives the same analysis every time and from a fresh analyser", () => {
    const text = SENTENCES.slice(0, 40).join(" ");
    const first: ReviewAnalysis = analyzer.analyze(text, 3);
    expect(analyzer.analyze(text, 3)).toEqual(first);
    expect(createAnalyzer(loadLexicon().lexicon).analyze(text, 3)).toEqual(first);
  });

  it("hashes the lexicon content, not its formatting", () => {
    expect(loaded.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(loaded.version).toMatch(/^aspects@\d+\.\d+\.\d+\+/);
    const copy = structuredClone(loaded.lexicon);
    expect(lexiconHash(copy)).toBe(loaded.hash);
    copy.valence.words.great = 1;
    expect(lexiconHash(copy)).not.toBe(loaded.hash);
  });

  it("rejects an invalid lexicon file with its path", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lexicon-"));
    for (const f of ["aspects.json", "valence.json", "idioms.json", "settings.json"]) {
      writeFileSync(path.join(dir, f), readFileSync(path.join("data/insights/lexicon", f)));
    }
    writeFileSync(path.join(dir, "settings.json"), JSON.stringify({ version: "1.0.0", threshold: -1 }));
    expect(() => loadLexicon(dir)).toThrow(/settings\.json is not a valid lexicon file/);
  });
});

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
    expect(e.overall).toEqual({ n: 3, precision: 1, recall: 1, f1: 1, polarity_accuracy: 1, polar_precision: 1 });
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
    });
    const dir = mkdtempSync(path.join(tmpdir(), "eval-"));
    const file = path.join(dir, "bad.jsonl");
    writeFileSync(file, '{"id":"a","text":"ok","aspects":{}}\n{"id":"","text":"x","aspects":{}}\n');
    const bad = spawnSync(tsx, ["scripts/insights-eval.ts", file], { encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(`${file}:2:`);
  });
});
