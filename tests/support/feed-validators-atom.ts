/**
 * Validates an Atom 1.0 feed (RFC 4287), so the test suite can prove the generated
 * Atom feed is valid: well-formedness (xmllint), the RFC 4287 Appendix B RELAX NG
 * schema (`atom/atom.rnc`, Debian `jing`), and ISO Schematron (`atom/atom.sch`,
 * Debian `xmllint --schematron`) for the rules RELAX NG cannot express plus our
 * publishing rules.
 *
 * Debian packages needed by validateAtom: `jing` (pulls in a Java runtime)
 * and `libxml2-utils` (xmllint).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Test timeout for a test that calls validateAtom: jing starts a JVM. */
export const ATOM_TIMEOUT = 60_000;

const ATOM_RNC = fileURLToPath(new URL("./atom/atom.rnc", import.meta.url));
const ATOM_SCH = fileURLToPath(new URL("./atom/atom.sch", import.meta.url));

/** Name of the temp file; tool messages refer to it. */
const FEED_FILE = "feed.xml";

interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

const DEBIAN_PACKAGE: Record<string, string> = {
  jing: "jing",
  xmllint: "libxml2-utils",
};

/** Runs a tool without a shell; resolves with its exit code and output. */
function run(tool: string, args: string[], cwd: string): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    execFile(
      tool,
      args,
      { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve({ code: 0, stdout, stderr });
          return;
        }
        const err = error as NodeJS.ErrnoException & {
          code?: unknown;
          killed?: boolean;
        };
        if (err.code === "ENOENT") {
          const pkg = DEBIAN_PACKAGE[tool] ?? tool;
          reject(
            new Error(
              `validateAtom needs \`${tool}\`, which was not found on PATH. ` +
                `Install the Debian package "${pkg}": apt-get install -y ${pkg}`,
            ),
          );
          return;
        }
        if (typeof err.code === "number") {
          resolve({ code: err.code, stdout, stderr });
          return;
        }
        reject(new Error(`${tool} failed to run: ${err.message}`, { cause: error }));
      },
    );
  });
}

/** Drops jing's launcher noise ("[warning] /usr/bin/jing: Unable to locate …"). */
function outputLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line !== "" && !line.startsWith("[warning] "));
}

/** A DOCTYPE before the root element (RFC 4287 defines no DTD; it also invites XXE). */
const DOCTYPE_IN_PROLOG = /^\uFEFF?(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*<!DOCTYPE/i;

/** xmllint --noout: "feed.xml:3: parser error : msg" followed by a source line and a caret line. */
function wellFormednessErrors(result: ToolResult): string[] {
  const errors: string[] = [];
  const prefix = `${FEED_FILE}:`;
  for (const line of outputLines(result.stderr)) {
    if (!line.startsWith(prefix)) continue; // source excerpt / caret lines
    const match = /^[^:]+:(\d+): (.*)$/.exec(line);
    errors.push(`XML not well-formed: line ${match?.[1] ?? "?"}: ${(match?.[2] ?? line).replace(/\s+:\s+/, ": ")}`);
  }
  if (errors.length === 0) errors.push(`XML not well-formed (xmllint exit ${result.code})`);
  return errors;
}

/** jing -c: "feed.xml:12:7: error: message". Anything naming the schema is a schema bug: throw. */
function relaxNgErrors(result: ToolResult): string[] {
  const lines = outputLines(`${result.stdout}\n${result.stderr}`);
  const schemaProblem = lines.find((line) => line.startsWith(ATOM_RNC));
  if (schemaProblem !== undefined) throw new Error(`atom.rnc could not be loaded by jing: ${schemaProblem}`);
  const errors: string[] = [];
  for (const line of lines) {
    const match = /^(?:.*?):(\d+):(\d+): (?:error|fatal): (.*)$/.exec(line);
    errors.push(
      match ? `RELAX NG (atom.rnc): line ${match[1]}:${match[2]}: ${match[3]}` : `RELAX NG (atom.rnc): ${line}`,
    );
  }
  if (result.code !== 0 && errors.length === 0) errors.push(`RELAX NG (atom.rnc): jing exited ${result.code}`);
  return errors;
}

/**
 * xmllint --schematron: one "PATH line N: message" per failed assert, then
 * "feed.xml fails to validate" (exit 3). Exit 5 means atom.sch did not compile.
 * Any other output (e.g. an XPath error, which libxml2 counts as a failed
 * assert) is passed through so it cannot go unnoticed.
 */
function schematronErrors(result: ToolResult): string[] {
  const lines = outputLines(`${result.stdout}\n${result.stderr}`);
  if (result.code === 5 || lines.some((line) => line.includes("failed to compile"))) {
    throw new Error(`atom.sch could not be compiled by xmllint:\n${lines.join("\n")}`);
  }
  const errors: string[] = [];
  for (const line of lines) {
    if (line === `${FEED_FILE} validates` || line === `${FEED_FILE} fails to validate`) continue;
    const match = /^(\S+) line (\d+): (.*)$/.exec(line);
    errors.push(
      match ? `Schematron (atom.sch): line ${match[2]} (${match[1]}): ${match[3]}` : `Schematron (atom.sch): ${line}`,
    );
  }
  if (result.code !== 0 && errors.length === 0) errors.push(`Schematron (atom.sch): xmllint exited ${result.code}`);
  return errors;
}

/**
 * Validates an Atom 1.0 feed document. Returns human-readable errors; an empty
 * list means valid. Throws if `jing` or `xmllint` is missing (the message names
 * the Debian package) or if a schema file cannot be loaded.
 */
export async function validateAtom(xml: string): Promise<string[]> {
  if (DOCTYPE_IN_PROLOG.test(xml)) {
    return [
      "XML: the feed must not contain a DOCTYPE declaration (Atom defines no DTD; entities are not expanded here)",
    ];
  }
  const dir = await mkdtemp(join(tmpdir(), "atom-validate-"));
  try {
    await writeFile(join(dir, FEED_FILE), xml, "utf8");

    const wellFormed = await run("xmllint", ["--noout", "--nonet", FEED_FILE], dir);
    if (wellFormed.code !== 0) return wellFormednessErrors(wellFormed);

    const [relaxNg, schematron] = await Promise.all([
      run("jing", ["-c", ATOM_RNC, FEED_FILE], dir),
      run("xmllint", ["--noout", "--nonet", "--schematron", ATOM_SCH, FEED_FILE], dir),
    ]);
    return [...relaxNgErrors(relaxNg), ...schematronErrors(schematron)];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
