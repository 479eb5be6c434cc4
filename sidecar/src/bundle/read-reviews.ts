import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { Review } from "../../../src/schemas/review.ts";
import type { ReviewsDocument } from "../../../src/schemas/reviews-document.ts";
import { BundleError } from "./load-bundle.ts";
import { shareRepeatedStrings } from "./share-strings.ts";

const REVIEWS = '"reviews":[';
/** Between two reviews: no review's nested object starts with "id", and no JSON string holds `"` unescaped. */
const NEXT_REVIEW = ',{"id":';
const END = "]}";

/** The build's layout is not what the chunked reader expects: the caller parses the file whole. */
class UnexpectedLayout extends Error {}

/**
 * reviews.json, read in chunks of `chunkBytes`: the reviews of each chunk are parsed as they arrive
 * (their repeated strings shared at once, see share-strings.ts), and the bytes are hashed on the way.
 * Reading the 45 MB file of 100k reviews whole kept its text (and, while it was read, a buffer of the
 * same size) alive beside the parsed reviews, about 60 MB more at the load's peak. Chunks stay below
 * V8's large-object size (128 KB), so their strings die young in scavenges instead of waiting for
 * the first full collection, which under load came after the RSS had grown by their size.
 *
 * It relies on the build's layout (compact JSON, "reviews" the last key, every review's first key
 * "id") and checks it: a chunk that is not whole reviews fails to parse, and then the file is read
 * again and parsed whole. Either way the reviews are returned only if the bytes have `sha256`.
 */
export function readReviewsDocument(file: string, sha256: string, chunkBytes = 64 * 1024): ReviewsDocument {
  const mismatch = () => new BundleError(`${file} does not match its manifest (a build may be in progress).`);
  try {
    const { document, digest } = readInChunks(file, chunkBytes);
    if (digest !== sha256) throw mismatch();
    return document;
  } catch (error) {
    if (!(error instanceof UnexpectedLayout || error instanceof SyntaxError)) throw error;
  }
  const { text, digest } = readText(file, chunkBytes);
  if (digest !== sha256) throw mismatch();
  const document = JSON.parse(text) as ReviewsDocument;
  shareRepeatedStrings(document.reviews);
  return document;
}

/**
 * Reads `file` in chunks of `chunkBytes`, hashing the bytes and handing their UTF-8 text to `onText`
 * piece by piece (a character split between chunks arrives whole). Returns the sha256, in hex.
 */
function readDecoded(file: string, chunkBytes: number, onText: (text: string) => void): string {
  const hash = createHash("sha256");
  const decoder = new StringDecoder("utf8");
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const fd = openSync(file, "r");
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      const bytes = buffer.subarray(0, read);
      hash.update(bytes);
      onText(decoder.write(bytes));
    }
  } finally {
    closeSync(fd);
  }
  onText(decoder.end());
  return hash.digest("hex");
}

function readInChunks(file: string, chunkBytes: number): { document: ReviewsDocument; digest: string } {
  const reviews: Review[] = [];
  const shared = new Map<string, string>();
  const take = (text: string) => {
    const parsed = JSON.parse(`[${text}]`) as Review[];
    shareRepeatedStrings(parsed, shared);
    for (const review of parsed) reviews.push(review);
  };
  let head: string | undefined;
  let pending = "";
  const digest = readDecoded(file, chunkBytes, (text) => {
    pending += text;
    if (head === undefined) {
      const at = pending.indexOf(REVIEWS);
      if (at < 0) return;
      head = pending.slice(0, at);
      pending = pending.slice(at + REVIEWS.length);
    }
    const last = pending.lastIndexOf(NEXT_REVIEW);
    if (last > 0) {
      take(pending.slice(0, last));
      pending = pending.slice(last + 1);
    }
  });
  if (head === undefined || !pending.endsWith(END)) throw new UnexpectedLayout();
  const rest = pending.slice(0, -END.length);
  if (rest !== "") take(rest);
  const document = JSON.parse(`${head}"reviews":[]}`) as ReviewsDocument;
  document.reviews = reviews;
  return { document, digest };
}

function readText(file: string, chunkBytes: number): { text: string; digest: string } {
  let text = "";
  const digest = readDecoded(file, chunkBytes, (piece) => {
    text += piece;
  });
  return { text, digest };
}
