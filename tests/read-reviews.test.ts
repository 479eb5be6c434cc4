import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { BundleError } from "../sidecar/src/bundle/load-bundle.ts";
import { readReviewsDocument } from "../sidecar/src/bundle/read-reviews.ts";
import { loadDataset } from "../src/data/load-dataset.ts";
import { buildReviewsDocument } from "../src/documents/reviews-document.ts";

const dir = mkdtempSync(path.join(tmpdir(), "read-reviews-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dataset = loadDataset("data");
/** Written as the build writes it (compact JSON), with its sha256. */
function written(document: unknown, name = "reviews.json"): { file: string; sha256: string; text: string } {
  const text = JSON.stringify(document);
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return { file, sha256: createHash("sha256").update(text).digest("hex"), text };
}

describe("reading reviews.json in chunks", () => {
  it("gives what JSON.parse gives, for texts with markers, quotes and multi-byte characters, at any chunk size", () => {
    const base = buildReviewsDocument(dataset);
    const tricky = fc.string({
      unit: fc.constantFrom("a", " ", '"', "\\", ",", "{", "}", "[", "]", ":", "id", "é", "€", "😀", "\n"),
    });
    fc.assert(
      fc.property(
        fc.array(tricky, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 300 }),
        (texts, chunk) => {
          const reviews = base.reviews
            .slice(0, texts.length)
            .map((review, i) => ({ ...review, text: `${texts[i]},{"id":"x"}]}` }));
          const { file, sha256, text } = written({ ...base, reviews });
          expect(readReviewsDocument(file, sha256, chunk)).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads the sample's reviews.json exactly, in big and in tiny chunks", () => {
    const { file, sha256, text } = written(buildReviewsDocument(dataset));
    for (const chunk of [7, 4096, 64 * 1024, 4 * 1024 * 1024])
      expect(readReviewsDocument(file, sha256, chunk)).toEqual(JSON.parse(text));
  });

  it("parses the file whole when its layout is not the build's (pretty-printed, a nested object starting with id)", () => {
    const document = buildReviewsDocument(dataset);
    const nested = { ...document, reviews: document.reviews.map((r) => ({ ...r, extra: [{ id: 1 }, { id: 2 }] })) };
    const { file, sha256, text } = written(nested, "nested.json");
    expect(readReviewsDocument(file, sha256, 64)).toEqual(JSON.parse(text));
    const pretty = JSON.stringify(document, null, 2);
    const prettyFile = path.join(dir, "pretty.json");
    writeFileSync(prettyFile, pretty);
    const prettySha = createHash("sha256").update(pretty).digest("hex");
    expect(readReviewsDocument(prettyFile, prettySha, 64)).toEqual(document);
  });

  it("refuses a file whose bytes are not the manifest's (a build caught mid-swap), whole or truncated", () => {
    const { file, sha256, text } = written(buildReviewsDocument(dataset), "swap.json");
    expect(() => readReviewsDocument(file, "0".repeat(64), 512)).toThrow(BundleError);
    writeFileSync(file, text.slice(0, text.length / 2));
    expect(() => readReviewsDocument(file, sha256, 512)).toThrow(/does not match its manifest/);
  });
});
