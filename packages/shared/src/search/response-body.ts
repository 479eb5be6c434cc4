import type { SincePage } from "./reviews-since.ts";
import type { SearchIndex } from "./search-index.ts";
import type { SearchPage } from "./search-reviews.ts";

/** A JSON body as the pieces it is sent in: the reviews' stored bytes are never copied. */
export interface JsonChunks {
  chunks: Buffer[];
  length: number;
}

const COMMA = Buffer.from(",");
const TAIL = Buffer.from("]}");

function assemble(head: string, reviews: Buffer[], tail = TAIL): JsonChunks {
  const chunks: Buffer[] = [Buffer.from(head)];
  reviews.forEach((review, i) => {
    if (i > 0) chunks.push(COMMA);
    chunks.push(review);
  });
  chunks.push(tail);
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  return { chunks, length };
}

/** The search response (SearchResponseSchema's member order), the page's reviews joined as stored. */
export function searchBody(index: SearchIndex, page: SearchPage): JsonChunks {
  const head = `{"total":${page.total},"count":${page.positions.length},"limit":${page.limit},"next_cursor":${JSON.stringify(page.next_cursor)},"reviews":[`;
  const tail = page.facets ? Buffer.from(`],"facets":${JSON.stringify(page.facets)}}`) : TAIL;
  return assemble(
    head,
    page.positions.map((p) => index.json(p)),
    tail,
  );
}

/** The since response (SinceResponseSchema's member order): its reviews are one run of stored bytes. */
export function sinceBody(index: SearchIndex, page: SincePage): JsonChunks {
  const head = `{"since":${JSON.stringify(page.since)},"total":${page.total},"count":${page.to - page.from},"next_cursor":${JSON.stringify(page.next_cursor)},"reviews":[`;
  return assemble(head, page.to > page.from ? [index.jsonRun(page.from, page.to)] : []);
}
