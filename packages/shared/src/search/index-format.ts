import type { Business } from "../schemas/business.ts";
import type { AggregateRating } from "../schemas/reviews-document.ts";

/**
 * The search index file the build writes next to the documents (search-index.bin, listed in the
 * manifest) and the sidecar maps at start-up without parsing the reviews:
 *
 *   "RVSIDX01"  u32 header length  header JSON  padding  sections (each 8-byte aligned)
 *
 * Sections are little-endian arrays, viewed in place: the reviews' JSON (each serialised once, in
 * the order of reviews.json, newest first) with its offsets, dates as YYYYMMDD numbers, ratings,
 * the folded texts with their offsets in UTF-16 units, the ids joined by "\n", the distinct words of
 * the folded texts joined by "\n", and the postings (see postings.ts) of every facet value (the insights
 * topics included), text gram and word.
 */
export const MAGIC = "RVSIDX03";

/** The file's name in the build's output folder. */
export const SEARCH_INDEX_FILE = "search-index.bin";

/** Where the sections start: after the magic, the header's length and the header, 8-byte aligned. */
export const dataStart = (headerBytes: number): number => Math.ceil((12 + headerBytes) / 8) * 8;

export type SectionName =
  | "json"
  | "jsonOffsets"
  | "dates"
  | "ratings"
  | "folded"
  | "foldedOffsets"
  | "ids"
  | "postings"
  | "grams"
  | "words"
  | "wordRows";

/** Where a section lies, in bytes from the start of the sections. */
export interface Section {
  at: number;
  bytes: number;
}

/** A posting in the postings section: its first u32 word and its number of positions. */
export type PostingRef = [key: string, at: number, size: number];

export interface IndexHeader {
  format: 3;
  /** The data version (the manifest's data_sha256). */
  version: string;
  count: number;
  business: Business;
  aggregate: AggregateRating;
  lastChanged: string | null;
  sections: Record<SectionName, Section>;
  facets: Record<"rating" | "technician" | "service" | "area" | "topic", PostingRef[]>;
  /** Number of gram rows in the grams section: [key, at, size] as u32 triples, by key. */
  grams: number;
  /** Number of words in the words section; the wordRows section holds [at, size] as u32 pairs, in the same order. */
  words: number;
}
