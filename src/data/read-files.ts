import { createHash, type Hash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DataProblem } from "./problems.ts";

export interface SourceFile {
  /** Path as shown in messages: relative to the working directory when inside it. */
  display: string;
  /** File name without the .json extension. */
  stem: string;
  json: unknown;
}

export interface ReadResult {
  business: SourceFile | undefined;
  reviews: SourceFile[];
  /** `removed/*.json`: the records of reviews taken down. The folder is optional. */
  removed: SourceFile[];
  problems: DataProblem[];
  sourceSha256: string;
}

export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

const BYTE_ORDER_MARK = "\uFEFF";

/**
 * Parses one data file's text. A byte-order mark (Windows Notepad writes one) is accepted; an empty
 * file and malformed JSON become a problem that says what is wrong with that file.
 */
export function parseDataText(text: string, display: string): { json: unknown } | { problem: DataProblem } {
  const body = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  if (body.trim() === "") {
    return {
      problem: {
        file: display,
        field: "(file)",
        message: "is empty: it must hold one JSON object; write the review into it or delete the file",
      },
    };
  }
  try {
    return { json: JSON.parse(body) };
  } catch (error) {
    return {
      problem: {
        file: display,
        field: "(file)",
        message: `is not valid JSON: ${(error as Error).message}; check for a missing comma or quote`,
      },
    };
  }
}

function readJson(
  file: string,
  display: string,
  problems: DataProblem[],
  hash?: { hash: Hash; name: string },
): SourceFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : String(error);
    problems.push({ file: display, field: "(file)", message: `cannot be read: ${reason}` });
    return undefined;
  }
  hash?.hash.update(`${hash.name}\0${text}\0`);
  const parsed = parseDataText(text, display);
  if ("problem" in parsed) {
    problems.push(parsed.problem);
    return undefined;
  }
  return { display, stem: path.basename(file, ".json"), json: parsed.json };
}

/**
 * Reads every `*.json` of a folder in name order. A missing folder is a problem unless `optional`;
 * other files are problems too, so a review saved as `.txt` is not silently left out.
 */
export function readJsonFolder(
  dir: string,
  problems: DataProblem[],
  options: { optional?: boolean; hash?: Hash; hashPrefix?: string } = {},
): SourceFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    if (options.optional && (error as NodeJS.ErrnoException).code === "ENOENT") return [];
    problems.push({
      file: displayPath(dir),
      field: "(folder)",
      message: "cannot be read: create the folder and put one JSON file per review in it",
    });
    return [];
  }
  // Names are built from a folder computed once: path.relative per file is costly with 100k files.
  const folder = displayPath(dir);
  const files: SourceFile[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    if (!name.endsWith(".json")) {
      problems.push({
        file: `${folder}/${name}`,
        field: "(file)",
        message: "is not a .json file: review files must be named <id>.json",
      });
      continue;
    }
    const hash = options.hash ? { hash: options.hash, name: `${options.hashPrefix}${name}` } : undefined;
    const file = readJson(path.join(dir, name), `${folder}/${name}`, problems, hash);
    if (file) files.push(file);
  }
  return files;
}

/**
 * Reads `business.json`, every `reviews/*.json` and every `removed/*.json` below `dataDir`, in name
 * order, parsing JSON but validating nothing else. Unreadable or malformed files become problems,
 * never exceptions. Drafts (`drafts/`) are not part of the published data and are not read here.
 */
export function readDataFiles(dataDir: string): ReadResult {
  const problems: DataProblem[] = [];
  const hash = createHash("sha256");
  const businessFile = path.join(dataDir, "business.json");
  const business = readJson(businessFile, displayPath(businessFile), problems, { hash, name: "business.json" });
  const reviews = readJsonFolder(path.join(dataDir, "reviews"), problems, { hash, hashPrefix: "reviews/" });
  const removed = readJsonFolder(path.join(dataDir, "removed"), problems, {
    optional: true,
    hash,
    hashPrefix: "removed/",
  });
  return { business, reviews, removed, problems, sourceSha256: hash.digest("hex") };
}
