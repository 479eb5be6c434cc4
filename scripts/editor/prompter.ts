import { createInterface } from "node:readline";
import { UsageError } from "./command.ts";

/**
 * Asks questions one line at a time. Lines are read through one async iterator, which buffers
 * them, so answers piped in ahead of the questions (scripts, tests) are not lost.
 */
export class Prompter {
  private readonly lines: AsyncIterator<string>;
  private readonly close: () => void;
  private readonly output: NodeJS.WritableStream;

  constructor(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout) {
    this.output = output;
    const rl = createInterface({ input, terminal: false });
    this.lines = rl[Symbol.asyncIterator]();
    this.close = () => rl.close();
  }

  /** One line; `fallback` is shown in brackets and taken for an empty answer. */
  async ask(question: string, fallback?: string): Promise<string> {
    this.output.write(`${question}${fallback ? ` [${fallback}]` : ""}: `);
    const next = await this.lines.next();
    // Ctrl-D in a terminal, or a script's answers running out: say so, not with a stack trace.
    if (next.done) throw new UsageError("\nNot saved: standard input ended before every question was answered.");
    const answer = next.value.trim();
    return answer === "" && fallback !== undefined ? fallback : answer;
  }

  /** Several lines, up to an empty one: paragraphs are written with a single "." line between them. */
  async askText(question: string): Promise<string> {
    this.output.write(`${question} (end with an empty line; a line with only "." starts a new paragraph):\n`);
    const lines: string[] = [];
    for (;;) {
      const next = await this.lines.next();
      if (next.done || next.value.trim() === "") break;
      lines.push(next.value.trim() === "." ? "" : next.value.trimEnd());
    }
    return lines.join("\n").trim();
  }

  /** Asks until `parse` accepts the answer; its error is shown before asking again. */
  async until<T>(question: string, parse: (answer: string) => T | { error: string }, fallback?: string): Promise<T> {
    for (;;) {
      const result = parse(await this.ask(question, fallback));
      if (result && typeof result === "object" && "error" in result) this.output.write(`  ${result.error}\n`);
      else return result as T;
    }
  }

  done(): void {
    this.close();
  }
}
