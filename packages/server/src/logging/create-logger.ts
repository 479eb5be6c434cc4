import { createRequire } from "node:module";
import { type Level, type Logger, pino } from "pino";
import type PinoPretty from "pino-pretty";
import { LineBatcher, type LineSink } from "./line-batcher.ts";
import { LOG_REDACT_PATHS } from "./redact.ts";

// pino-pretty is loaded only for a terminal: the container's start-up (a target) never pays for it.
const require = createRequire(import.meta.url);

export interface LogOutputInput {
  /** LOG_FORMAT: auto (pretty in an interactive terminal, JSON otherwise), json or pretty. */
  format: "auto" | "json" | "pretty";
  /** LOG_LEVEL, and whether it was set: a terminal shows warnings and errors unless asked for more. */
  level: Level | "silent";
  levelGiven: boolean;
  /** Standard output is a terminal. */
  terminal: boolean;
  /** Running under CI (the CI variable set to anything but false or 0). */
  ci: boolean;
}

export interface LogOutput {
  format: "json" | "pretty";
  level: Level | "silent";
}

/**
 * JSON lines unless a person is watching: in an interactive terminal (not under CI) lines are
 * human-readable and only warnings and errors show by default; LOG_LEVEL=info adds a line per request.
 */
export function chooseLogOutput(input: LogOutputInput): LogOutput {
  const format = input.format === "auto" ? (input.terminal && !input.ci ? "pretty" : "json") : input.format;
  const level = format === "pretty" && !input.levelGiven ? "warn" : input.level;
  return { format, level };
}

/** The CI variable as CI services set it. */
export const underCi = (value: string | undefined) =>
  value !== undefined && value !== "" && value !== "false" && value !== "0";

/**
 * The process's logger on standard output (tests: `destination`), with credentials redacted from
 * every line (redact.ts). JSON: synchronous (a line is never lost in a crash),
 * lines joined per event-loop turn and written on exit. Pretty: pino-pretty as a synchronous stream.
 */
export function createLogger(output: LogOutput, destination?: LineSink): Logger {
  const options = { level: output.level, redact: { paths: LOG_REDACT_PATHS } };
  if (output.format === "pretty") {
    const pretty = require("pino-pretty") as typeof PinoPretty;
    const stream = pretty({
      colorize: true,
      sync: true,
      destination: 1,
      translateTime: "SYS:HH:MM:ss",
      ignore: "pid,hostname",
    });
    return pino(options, stream);
  }
  const lines = new LineBatcher(destination ?? pino.destination({ sync: true }));
  process.once("exit", () => lines.flushSync());
  return pino(options, lines);
}
