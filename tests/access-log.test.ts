import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { type Answered, createAccessLog, toMicroseconds } from "../sidecar/src/http/access-log.ts";
import { LineBatcher } from "../sidecar/src/logging/line-batcher.ts";

/** A pino logger writing into an array of lines, as the sidecar's writes into its stream. */
function capture(options: pino.LoggerOptions = {}) {
  const lines: string[] = [];
  const logger = pino({ level: "info", ...options }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

const parse = (line: string) => {
  const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
  expect(typeof time).toBe("number");
  return rest;
};

const answered = fc.record({
  id: fc.string({ unit: "binary", maxLength: 60 }),
  method: fc.constantFrom("GET", "HEAD", "POST"),
  url: fc.string({ unit: "binary", maxLength: 200 }),
  statusCode: fc.integer({ min: 100, max: 599 }),
  ms: fc.double({ min: 0, max: 10_000, noNaN: true }),
});

describe("the access-log line of the fast paths", () => {
  it("is the line pino writes for the same record, for any id, URL, status and time", () => {
    const built = capture();
    const viaPino = capture();
    const log = createAccessLog(built.logger);
    // With the sidecar's pino options the line is built, not serialised by pino.
    built.logger.info = () => {
      throw new Error("the built line should not go through logger.info");
    };
    fc.assert(
      fc.property(answered, (a: Answered) => {
        log?.(a);
        viaPino.logger.info(
          {
            req: { id: a.id, method: a.method, url: a.url },
            res: { statusCode: a.statusCode },
            responseTime: toMicroseconds(a.ms),
          },
          "request completed",
        );
        const mine = built.lines.at(-1) as string;
        expect(mine.endsWith("\n")).toBe(true);
        expect(parse(mine)).toEqual(parse(viaPino.lines.at(-1) as string));
      }),
      { numRuns: 300 },
    );
  });

  it("goes through pino when the logger would write something else (a mixin, redaction, ISO time)", () => {
    for (const options of [
      { mixin: () => ({ service: "reviews" }) },
      { redact: ["req.url"] },
      { timestamp: pino.stdTimeFunctions.isoTime },
    ] satisfies pino.LoggerOptions[]) {
      const { logger, lines } = capture(options);
      createAccessLog(logger)?.({ id: "r1", method: "GET", url: "/api/reviews/search?x=1", statusCode: 200, ms: 1.5 });
      const line = JSON.parse(lines[0] as string) as Record<string, unknown>;
      if ("mixin" in options) expect(line.service).toBe("reviews");
      if ("redact" in options) expect((line.req as { url: string }).url).toBe("[Redacted]");
      if ("timestamp" in options) expect(typeof line.time).toBe("string");
    }
  });

  it("is off when info is", () => {
    expect(createAccessLog(pino({ level: "warn" }))).toBeUndefined();
  });
});

describe("the sidecar's log destination", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "line-batcher-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes a turn's lines together at the end of the turn, in order, and at once past its limit", async () => {
    const file = path.join(dir, "turns.log");
    const lines = new LineBatcher(pino.destination({ dest: file, sync: true }), 200);
    const logger = pino({ level: "info" }, lines);
    logger.info("one");
    logger.info("two");
    expect(readFileSync(file, "utf8")).toBe("");
    await new Promise((resolve) => setImmediate(resolve));
    expect(
      readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l).msg),
    ).toEqual(["one", "two"]);
    // Past 200 characters the pending lines go at once.
    logger.info(`three ${"x".repeat(200)}`);
    expect(readFileSync(file, "utf8")).toContain("three");
  });

  it("writes what is pending when pino's flush is called (as the sidecar does before exiting)", () => {
    const file = path.join(dir, "flush.log");
    const logger = pino({ level: "info" }, new LineBatcher(pino.destination({ dest: file, sync: true })));
    logger.info("last words");
    logger.flush();
    expect(readFileSync(file, "utf8")).toContain("last words");
  });
});
