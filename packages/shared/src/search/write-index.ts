import { latestChange } from "../schemas/dataset.ts";
import type { ReviewsDocument } from "../schemas/reviews-document.ts";
import { foldText } from "./fold.ts";
import { forEachGram } from "./grams.ts";
import { dataStart, type IndexHeader, MAGIC, type PostingRef, type Section, type SectionName } from "./index-format.ts";
import { encodePosting } from "./postings.ts";
import { wordsOf } from "./words.ts";

/** YYYY-MM-DD as the number YYYYMMDD, which orders as the date does. */
export const dateNumber = (date: string): number => Number(date.slice(0, 4) + date.slice(5, 7) + date.slice(8, 10));

/** Folded title and text, joined by a NUL (which no valid query contains, so no match spans both). */
export const foldedReviewText = (review: { title?: string | undefined; text?: string | undefined }): string =>
  foldText([review.title, review.text].filter(Boolean).join("\u0000"));

function postingsByKey(count: number, keysOf: (position: number) => readonly string[]): Map<string, number[]> {
  const byKey = new Map<string, number[]>();
  for (let position = 0; position < count; position++) {
    for (const key of new Set(keysOf(position))) {
      const list = byKey.get(key);
      if (list) list.push(position);
      else byKey.set(key, [position]);
    }
  }
  return new Map([...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Every gram's positions, deduplicated per review, in two passes (count, then fill) to keep memory flat. */
function gramPostings(folded: readonly Uint8Array[]): Map<number, Uint32Array> {
  const ids = new Map<number, number>();
  const sizes: number[] = [];
  const last: number[] = [];
  folded.forEach((bytes, position) => {
    forEachGram(bytes, (key) => {
      let id = ids.get(key);
      if (id === undefined) {
        id = sizes.length;
        ids.set(key, id);
        sizes.push(0);
        last.push(-1);
      }
      if (last[id] !== position) {
        last[id] = position;
        sizes[id] = (sizes[id] as number) + 1;
      }
    });
  });
  const lists = sizes.map((size) => new Uint32Array(size));
  const filled = new Uint32Array(sizes.length);
  last.fill(-1);
  folded.forEach((bytes, position) => {
    forEachGram(bytes, (key) => {
      const id = ids.get(key) as number;
      if (last[id] === position) return;
      last[id] = position;
      (lists[id] as Uint32Array)[filled[id] as number] = position;
      filled[id] = (filled[id] as number) + 1;
    });
  });
  return new Map([...ids].sort(([a], [b]) => a - b).map(([key, id]) => [key, lists[id] as Uint32Array]));
}

const align = (n: number) => Math.ceil(n / 8) * 8;

/** The reviews the build's insights file under one topic, as positions in the document's reviews. */
export interface TopicReviews {
  id: string;
  reviews: readonly number[];
}

/**
 * The search index file of a reviews document (see index-format.ts); `version` is the data version
 * the sidecar checks it against. Deterministic: the same document and topics give the same bytes.
 */
export function writeSearchIndex(
  document: ReviewsDocument,
  version: string,
  topics: readonly TopicReviews[] = [],
): Buffer {
  const { reviews } = document;
  const count = reviews.length;
  const json = reviews.map((review) => JSON.stringify(review));
  const foldedTexts = reviews.map(foldedReviewText);
  const foldedBytes = foldedTexts.map((text) => Buffer.from(text));

  const offsets = (lengths: number[]) => {
    const result = new Uint32Array(count + 1);
    lengths.forEach((length, i) => {
      result[i + 1] = (result[i] as number) + length;
    });
    return result;
  };
  const postings: Uint32Array[] = [];
  let postingWords = 0;
  const addPosting = (positions: ArrayLike<number>): number => {
    const at = postingWords;
    const words = encodePosting(positions, count);
    postings.push(words);
    postingWords += words.length;
    return at;
  };
  const facet = (keysOf: (position: number) => readonly string[]): PostingRef[] =>
    [...postingsByKey(count, keysOf)].map(([key, positions]) => [key, addPosting(positions), positions.length]);
  const facets = {
    rating: facet((p) => [String(reviews[p]?.rating)]),
    technician: facet((p) => reviews[p]?.technicians ?? []),
    service: facet((p) => (reviews[p]?.services ?? []).map((id) => id.toLowerCase())),
    area: facet((p) => [reviews[p]?.service_area ?? ""]),
    topic: [...topics]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(({ id, reviews: positions }): PostingRef => {
        const sorted = [...new Set(positions)].sort((a, b) => a - b);
        return [id, addPosting(sorted), sorted.length];
      }),
  };
  const gramRows: number[] = [];
  for (const [key, positions] of gramPostings(foldedBytes)) gramRows.push(key, addPosting(positions), positions.length);
  const words = postingsByKey(count, (p) => wordsOf(foldedTexts[p] as string));
  const wordRows: number[] = [];
  for (const positions of words.values()) wordRows.push(addPosting(positions), positions.length);

  const sections: [SectionName, Uint8Array][] = [
    // Joined by commas: the reviews of a run of positions (a since answer) are one slice.
    ["json", Buffer.from(json.join(","))],
    ["jsonOffsets", u8(offsets(json.map((text) => Buffer.byteLength(text) + 1)))],
    ["dates", u8(Uint32Array.from(reviews, (r) => dateNumber(r.date)))],
    ["ratings", Uint8Array.from(reviews, (r) => r.rating)],
    ["folded", Buffer.concat(foldedBytes)],
    ["foldedOffsets", u8(offsets(foldedTexts.map((t) => t.length)))],
    ["ids", Buffer.from(reviews.map((r) => r.id).join("\n"))],
    ["postings", u8(concatWords(postings, postingWords))],
    ["grams", u8(Uint32Array.from(gramRows))],
    ["words", Buffer.from([...words.keys()].join("\n"))],
    ["wordRows", u8(Uint32Array.from(wordRows))],
  ];
  const placed = {} as Record<SectionName, Section>;
  const header: IndexHeader = {
    format: 3,
    version,
    count,
    business: document.business,
    aggregate: document.aggregate_rating,
    lastChanged: latestChange(reviews) ?? null,
    sections: placed,
    facets,
    grams: gramRows.length / 3,
    words: words.size,
  };
  // Offsets count from the end of the header (aligned), so the header never depends on its own length.
  let at = 0;
  for (const [name, bytes] of sections) {
    placed[name] = { at, bytes: bytes.length };
    at = align(at + bytes.length);
  }
  const text = Buffer.from(JSON.stringify(header));
  const base = dataStart(text.length);
  const file = Buffer.alloc(base + at);
  file.write(MAGIC, 0, "latin1");
  file.writeUInt32LE(text.length, 8);
  text.copy(file, 12);
  for (const [name, bytes] of sections) file.set(bytes, base + placed[name].at);
  return file;
}

const u8 = (array: Uint32Array): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

function concatWords(parts: Uint32Array[], total: number): Uint32Array {
  const all = new Uint32Array(total);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
