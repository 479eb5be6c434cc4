import { createHash } from "node:crypto";
import type { Business } from "../schemas/business.ts";
import type { Review } from "../schemas/review.ts";
import type { AggregateRating, ReviewsDocument } from "../schemas/reviews-document.ts";
import { foldText } from "./fold.ts";
import { dataStart, type IndexHeader, MAGIC, type PostingRef, type SectionName } from "./index-format.ts";
import { bitmapWords, decodePosting, isDense, type Posting } from "./postings.ts";
import { type TopicReviews, writeSearchIndex } from "./write-index.ts";

export type FacetName = "rating" | "technician" | "service" | "area" | "topic";

/**
 * One build's reviews as the search engine reads them, viewed in place over the index file: the
 * reviews stay serialised (each response joins their bytes) and are parsed only when a caller
 * wants objects (MCP tools).
 */
export interface SearchIndex {
  count: number;
  /** The data version the build wrote the index for (the manifest's data_sha256). */
  dataSha256: string;
  /** Identifies this data: ETags and cursors carry it, so neither outlives the data. */
  version: string;
  business: Business;
  aggregate: AggregateRating;
  /** Latest change date in the data (YYYY-MM-DD), for Last-Modified. */
  lastChanged: string | undefined;
  timeZone: string;
  /** Dates as YYYYMMDD per position, non-increasing (newest first). */
  dates: Uint32Array;
  ratings: Uint8Array;
  /** Posting per facet value: rating ("1".."5"), technician display name, lower-case service id, area id, topic id. */
  facets: Readonly<Record<FacetName, ReadonlyMap<string, Posting>>>;
  /** Folded technician key (id, display name or first name) -> display names it may mean. */
  technicianKeys: ReadonlyMap<string, readonly string[]>;
  /** The posting of a text gram (see grams.ts), undefined if no review holds it. */
  gram(key: number): Posting | undefined;
  /** The distinct words of the folded texts (see words.ts), sorted, and their postings in the same order. */
  words(): { words: readonly string[]; postings: readonly Posting[] };
  /** The review at a position, as serialised in reviews.json. */
  json(position: number): Buffer;
  /** The reviews at positions [from, to), serialised and joined by commas (one slice, no copy). */
  jsonRun(from: number, to: number): Buffer;
  review(position: number): Review;
  /** Folded title and text (joined by a NUL). */
  folded(position: number): string;
  positionOf(id: string): number | undefined;
  idAt(position: number): string;
}

export class IndexFileError extends Error {
  override name = "IndexFileError";
}

const ALIGNED = 4;

/** Reads a search index file (see index-format.ts); throws IndexFileError when it is not one. */
export function readSearchIndex(file: Buffer): SearchIndex {
  if (file.length < 12 || file.toString("latin1", 0, 8) !== MAGIC) {
    throw new IndexFileError("is not a search index of this version (rebuild the site)");
  }
  const headerBytes = file.readUInt32LE(8);
  const header = JSON.parse(file.toString("utf8", 12, 12 + headerBytes)) as IndexHeader;
  // Typed views need aligned offsets; a file read on its own always is, a pooled slice may not be.
  const bytes = file.byteOffset % ALIGNED === 0 ? file : Buffer.from(file);
  const base = bytes.byteOffset + dataStart(headerBytes);
  const section = (name: SectionName) => {
    const { at, bytes: length } = header.sections[name];
    if (dataStart(headerBytes) + at + length > bytes.length) throw new IndexFileError(`is truncated (${name})`);
    return { offset: base + at, length };
  };
  const u8 = (name: SectionName) => {
    const { offset, length } = section(name);
    return Buffer.from(bytes.buffer, offset, length);
  };
  const u32 = (name: SectionName) => {
    const { offset, length } = section(name);
    return new Uint32Array(bytes.buffer, offset, length / 4);
  };
  const { count } = header;
  const json = u8("json");
  const jsonOffsets = u32("jsonOffsets");
  const postings = u32("postings");
  const posting = (at: number, size: number) =>
    decodePosting(postings.subarray(at, at + (isDense(size, count) ? bitmapWords(count) : size)), size, count);
  const facet = (refs: PostingRef[]) => new Map(refs.map(([key, at, size]) => [key, posting(at, size)]));
  const gramRows = u32("grams");
  const grams = new Map<number, Posting>();
  for (let row = 0; row < header.grams; row++) {
    const i = row * 3;
    grams.set(gramRows[i] as number, posting(gramRows[i + 1] as number, gramRows[i + 2] as number));
  }
  const wordsSection = u8("words");
  const wordRows = u32("wordRows");
  let words: { words: string[]; postings: Posting[] } | undefined;
  const foldedSection = u8("folded");
  const foldedOffsets = u32("foldedOffsets");
  const idsSection = u8("ids");
  // Only text queries need the folded texts, only id lookups the ids: each is decoded on first use.
  let folded: string[] | undefined;
  let ids: string[] | undefined;
  let byId: Map<string, number> | undefined;
  const allIds = () => {
    ids ??= count === 0 ? [] : idsSection.toString("utf8").split("\n");
    return ids;
  };
  const { business } = header;
  return {
    count,
    dataSha256: header.version,
    version: createHash("sha256").update(header.version).digest("base64url").slice(0, 12),
    business,
    aggregate: header.aggregate,
    lastChanged: header.lastChanged ?? undefined,
    timeZone: business.time_zone,
    dates: u32("dates"),
    ratings: u8("ratings"),
    facets: {
      rating: facet(header.facets.rating),
      technician: facet(header.facets.technician),
      service: facet(header.facets.service),
      area: facet(header.facets.area),
      topic: facet(header.facets.topic),
    },
    technicianKeys: technicianKeys(business),
    gram: (key) => grams.get(key),
    words() {
      words ??= {
        words: header.words === 0 ? [] : wordsSection.toString("utf8").split("\n"),
        postings: Array.from({ length: header.words }, (_, row) =>
          posting(wordRows[row * 2] as number, wordRows[row * 2 + 1] as number),
        ),
      };
      return words;
    },
    // Each review's bytes end one before the next one's start (a comma, or past the end).
    json: (p) => json.subarray(jsonOffsets[p], (jsonOffsets[p + 1] as number) - 1),
    jsonRun: (from, to) => json.subarray(jsonOffsets[from], Math.max(0, (jsonOffsets[to] as number) - 1)),
    review: (p) => JSON.parse(json.toString("utf8", jsonOffsets[p], (jsonOffsets[p + 1] as number) - 1)) as Review,
    folded(p) {
      if (!folded) {
        // One decode, then a slice per review (V8 shares the decoded text): about 4 MB at 100k.
        const text = foldedSection.toString("utf8");
        folded = Array.from({ length: count }, (_, i) => text.slice(foldedOffsets[i], foldedOffsets[i + 1]));
      }
      return folded[p] as string;
    },
    positionOf(id) {
      byId ??= new Map(allIds().map((value, position) => [value, position]));
      return byId.get(id);
    },
    idAt: (p) => allIds()[p] as string,
  };
}

function technicianKeys(business: Business): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  const add = (key: string, name: string) => {
    const folded = foldText(key.trim());
    const names = keys.get(folded) ?? [];
    if (!names.includes(name)) names.push(name);
    keys.set(folded, names);
  };
  for (const technician of business.technicians) {
    add(technician.id, technician.name);
    add(technician.name, technician.name);
    add(technician.name.split(/\s+/)[0] ?? technician.name, technician.name);
  }
  return keys;
}

/** The index of a reviews document, through the same file format the build writes. */
export function buildSearchIndex(
  document: ReviewsDocument,
  version: string,
  topics: readonly TopicReviews[] = [],
): SearchIndex {
  return readSearchIndex(writeSearchIndex(document, version, topics));
}
