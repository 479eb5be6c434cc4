import { createHash } from "node:crypto";
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
  problems: DataProblem[];
  sourceSha256: string;
}

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

/**
 * Reads `business.json` and every `reviews/*.json` below `dataDir`, in name order, parsing JSON but
 * validating nothing else. Unreadable or malformed files become problems, never exceptions.
 */
export function readDataFiles(dataDir: string): ReadResult {
  const problems: DataProblem[] = [];
  const hash = createHash("sha256");

  // Names are built from a folder computed once: path.relative per file costs ~1 s at 100k files.
  const readJson = (file: string, display: string, hashName: string): SourceFile | undefined => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : String(error);
      problems.push({ file: display, field: "(file)", message: `cannot be read: ${reason}` });
      return undefined;
    }
    hash.update(`${hashName}\0${text}\0`);
    try {
      return { display, stem: path.basename(file, ".json"), json: JSON.parse(text) };
    } catch (error) {
      problems.push({
        file: display,
        field: "(file)",
        message: `is not valid JSON: ${(error as Error).message}; check for a missing comma or quote`,
      });
      return undefined;
    }
  };

  const businessFile = path.join(dataDir, "business.json");
  const business = readJson(businessFile, displayPath(businessFile), "business.json");
  const reviewsDir = path.join(dataDir, "reviews");
  let names: string[] = [];
  try {
    names = readdirSync(reviewsDir).sort();
  } catch {
    problems.push({
      file: displayPath(reviewsDir),
      field: "(folder)",
      message: "cannot be read: create the folder and put one JSON file per review in it",
    });
  }
  const reviews: SourceFile[] = [];
  const reviewsDisplay = displayPath(reviewsDir);
  for (const name of names) {
    if (name.startsWith(".")) continue;
    if (!name.endsWith(".json")) {
      problems.push({
        file: `${reviewsDisplay}/${name}`,
        field: "(file)",
        message: "is not a .json file: review files must be named <id>.json",
      });
      continue;
    }
    const file = readJson(path.join(reviewsDir, name), `${reviewsDisplay}/${name}`, `reviews/${name}`);
    if (file) reviews.push(file);
  }
  return { business, reviews, problems, sourceSha256: hash.digest("hex") };
}
