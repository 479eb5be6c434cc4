import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchCatalogue } from "../src/data/catalogue-match.ts";
import { displayName } from "../src/data/editor/display-name.ts";
import { deriveReviewId } from "../src/data/editor/review-id.ts";
import { type ImportCandidate, parseRating } from "../src/data/import/candidate.ts";
import { aliasMap, delimiterOf, readCsv } from "../src/data/import/csv-table.ts";
import { parseLocalDate } from "../src/data/import/dates.ts";
import { readGoogleExport } from "../src/data/import/google-export.ts";
import { type JobRecord, matchJob } from "../src/data/import/jobs.ts";

const TZ = "America/Los_Angeles";
const TECHNICIANS = [
  { id: "luis-ortega", name: "Luis O." },
  { id: "chris-moreno", name: "Chris M." },
  { id: "chris-albright", name: "Chris A." },
  { id: "priya-natarajan", name: "Priya N." },
];

describe("display names", () => {
  it.each([
    ["Maria Garcia", "Maria G."],
    ["maria garcia lopez", "Maria L."],
    ["MARIA GARCIA", "Maria G."],
    ["Garcia, Maria", "Maria G."],
    ["van der Berg, Piet", "Piet V."],
    ["Maria G.", "Maria G."],
    ["Tomás Ruiz", "Tomás R."],
    ["Cher", "Cher"],
    ["DeShawn McKay", "DeShawn M."],
    ["Dr. Jane Roe-Smith", "Jane R."],
    ["Mrs Ann Lee", "Ann L."],
    ["Roe, Dr. Jane", "Jane R."],
    ["Ms. Lee", "Ms. L."],
  ])("shows %s as %s", (full, shown) => expect(displayName(full)).toBe(shown));

  it("never takes an e-mail address or a phone number for a name", () => {
    expect(displayName("tom@example.com")).toBeUndefined();
    expect(displayName("916 555 0142")).toBeUndefined();
  });
});

describe("dates of import files", () => {
  it.each([
    ["2025-03-02", "2025-03-02"],
    ["2025/3/2", "2025-03-02"],
    ["03/02/2025", "2025-03-02"],
    ["3/2/25", "2025-03-02"],
    ["25/12/2024", "2024-12-25"],
    ["02.03.2025", "2025-03-02"],
    ["March 2, 2025", "2025-03-02"],
    ["2 Mar 2025", "2025-03-02"],
    ["2025-03-03T05:00:00Z", "2025-03-02"],
    ["2025-03-03T05:00:00.123456Z", "2025-03-02"],
    ["2025-03-02T23:30:00-08:00", "2025-03-02"],
    ["3/2/2025 14:05", "2025-03-02"],
    ["03/02/2025 11:59:59 PM", "2025-03-02"],
    ["2025-03-02 00:10:00", "2025-03-02"],
    ["Mar 2, 2025, 9:30 am", "2025-03-02"],
  ])("reads %s as the local date %s", (text, date) => expect(parseLocalDate(text, TZ)).toBe(date));

  it.each(["2025-02-30", "13/13/2025", "yesterday", "", "2025-03-02T10:00", "14:05", "3/2/2025 25:00"])(
    "refuses %j",
    (text) => expect(parseLocalDate(text, TZ)).toBeUndefined(),
  );
});

describe("Business Profile comments", () => {
  const textOf = (comment: string) =>
    readGoogleExport([{ reviewId: "r", starRating: "FOUR", comment, createTime: "2026-11-06T20:00:00Z" }], TZ)
      .candidates[0]?.text;

  it("keep what the customer wrote, whether Google's translation comes before or after it", () => {
    expect(textOf("(Translated by Google) Good service\n\n(Original)\nGuter Service")).toBe("Guter Service");
    expect(textOf("Guter Service\n\n(Translated by Google)\nGood service")).toBe("Guter Service");
    expect(textOf("(Translated by Google) Good service")).toBe("Good service");
    expect(textOf("Good service")).toBe("Good service");
  });
});

describe("Business Profile reviewers", () => {
  const authorOf = (reviewer: object) =>
    readGoogleExport([{ reviewId: "r", reviewer, starRating: "FIVE", createTime: "2026-11-06T20:00:00Z" }], TZ)
      .candidates[0]?.author;

  it("are shown shortened, and as Google user when anonymous however the export says so", () => {
    expect(authorOf({ displayName: "Maria Garcia" })).toBe("Maria G.");
    expect(authorOf({ displayName: "A Google User" })).toBe("Google user");
    expect(authorOf({ isAnonymous: true, displayName: "" })).toBe("Google user");
    expect(authorOf({})).toBe("Google user");
  });
});

describe("ratings", () => {
  it("reads the usual ways of writing stars and refuses the rest", () => {
    expect(["5", "4.0", "3 stars", "2/5", "FIVE", "★★★★☆", 1].map((v) => parseRating(v))).toEqual([
      5, 4, 3, 2, 5, 4, 1,
    ]);
    expect(["0", "6", "4.5", "SIX", "", "great"].map((v) => parseRating(v))).toEqual(Array(6).fill(undefined));
  });
});

describe("catalogue matching", () => {
  it("accepts an id, a name in any case, a unique first name or a close misspelling", () => {
    expect(matchCatalogue("luis-ortega", TECHNICIANS).entry?.name).toBe("Luis O.");
    expect(matchCatalogue("luis o", TECHNICIANS).entry?.name).toBe("Luis O.");
    expect(matchCatalogue("Priya", TECHNICIANS).entry?.name).toBe("Priya N.");
    expect(matchCatalogue("Luiz O.", TECHNICIANS)).toMatchObject({ entry: { name: "Luis O." }, by: "close" });
  });

  it("never guesses between two equally close entries: it only suggests", () => {
    expect(matchCatalogue("Chris", TECHNICIANS)).toMatchObject({ entry: undefined, suggestion: { name: "Chris M." } });
    expect(matchCatalogue("Zebediah", TECHNICIANS)).toEqual({ entry: undefined, suggestion: undefined });
  });
});

describe("review ids", () => {
  it("are the date and the shown name, numbered when taken (removed ids included)", () => {
    expect(deriveReviewId("2025-03-02", "Tomás R.", new Set())).toBe("2025-03-02-tomas-r");
    expect(deriveReviewId("2025-03-02", "Maria G.", new Set(["2025-03-02-maria-g"]))).toBe("2025-03-02-maria-g-2");
  });
});

describe("CSV reading", () => {
  const aliases = aliasMap({ text: ["review"], author: ["name"] });

  it("gives every row's values back as written, whatever quotes, commas and line breaks they hold", () => {
    const cell = fc.string({ unit: fc.constantFrom("a", "é", " ", ",", '"', "\n", "\r\n", "x", "😀") });
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell), { minLength: 1, maxLength: 5 }), fc.boolean(), (rows, bom) => {
        const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
        const text = `${bom ? "\uFEFF" : ""}Review,NAME\r\n${rows.map((r) => r.map(quote).join(",")).join("\r\n")}\r\n`;
        const parsed = readCsv(text, aliases).rows;
        const expected = rows
          .map(([t, a]) => [t.replace(/\r\n?/g, "\n").trim(), a.replace(/\r\n?/g, "\n").trim()])
          .filter(([t, a]) => t !== "" || a !== "");
        const got = parsed.map((row) => [row.values.get("text") ?? "", row.values.get("author") ?? ""]);
        expect(got).toEqual(expected);
      }),
    );
  });

  it("reads the semicolons and tabs spreadsheets write as well as commas", () => {
    expect(delimiterOf("Date;Rating;Name;Feedback\r\n")).toBe(";");
    expect(delimiterOf("date\tstars\tname\n")).toBe("\t");
    expect(delimiterOf("date,stars,name")).toBe(",");
    const { rows } = readCsv('Name;Review\r\n"van der Berg, Piet";"Came on time; fixed the tap."\r\n', aliases);
    expect([...(rows[0]?.values ?? [])]).toEqual([
      ["author", "van der Berg, Piet"],
      ["text", "Came on time; fixed the tap."],
    ]);
  });

  it("numbers rows by the line they start on", () => {
    const { rows } = readCsv('name,review\nA,"one\ntwo"\n\nB,three\n', aliases);
    expect(rows.map((r) => r.line)).toEqual([2, 5]);
  });

  it("numbers rows by the line they start on in a CRLF file with line breaks in quoted text", () => {
    const { rows } = readCsv('name,review\r\nA,"one\r\ntwo\r\nthree"\r\nB,four\r\nC,five\r\n', aliases);
    expect(rows.map((r) => r.line)).toEqual([2, 5, 6]);
  });
});

describe("matching reviews to jobs", () => {
  const job = (id: string, date: string, customer = "maria g"): JobRecord => ({
    job: id,
    customerKey: customer,
    date,
    technicians: [],
    services: [],
  });
  const review = { author: "Maria G.", date: "2025-03-10" } as ImportCandidate;

  it("takes the latest job of that customer on the review's day or up to 60 days before", () => {
    expect(matchJob(review, [job("A", "2025-01-01"), job("B", "2025-03-01"), job("C", "2025-03-11")])?.job).toBe("B");
    expect(matchJob(review, [job("A", "2025-01-08")])).toBeUndefined();
    expect(matchJob(review, [job("A", "2025-03-10", "maria h")])).toBeUndefined();
  });

  it("matches nothing when two jobs of that day fit", () => {
    expect(matchJob(review, [job("A", "2025-03-09"), job("B", "2025-03-09")])).toBeUndefined();
  });
});
