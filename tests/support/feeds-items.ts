/**
 * What the feed tests (tests/feeds-*.test.ts) check on every item: which review it
 * is about, and that its content_html escapes the review text.
 */
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { paragraphs } from "../../src/site/html.ts";

/** The review id at the end of an entry id (tag:host,year:review:<id>). */
export function reviewIdOf(entryId: string): string {
  const match = /:review:([a-z0-9-]+)$/.exec(entryId);
  if (!match?.[1]) throw new Error(`not a review entry id: ${entryId}`);
  return match[1];
}

/** The only tags content_html may contain; review text must never add any. */
const ALLOWED_TAGS = /<\/?(?:p|blockquote)>|<br>/g;
const ENTITY = /&(?:amp|lt|gt|quot|#39);/g;
const DECODE: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/**
 * Problems with the escaping of one item's content_html: a tag other than the builder's own, a bare
 * `&`, or a paragraph of the review text or reply that does not come back verbatim after decoding.
 */
export function escapingProblems(html: string, review: Review): string[] {
  const problems: string[] = [];
  const withoutTags = html.replace(ALLOWED_TAGS, "\n");
  if (/[<>]/.test(withoutTags)) problems.push(`markup other than <p>, <br>, <blockquote>: ${html}`);
  if (/&/.test(withoutTags.replace(ENTITY, ""))) problems.push(`unescaped "&": ${html}`);
  const decoded = html
    .replace(/<br>/g, "\n")
    .replace(ALLOWED_TAGS, "\u0000")
    .replace(ENTITY, (entity) => DECODE[entity] ?? entity);
  const blocks = new Set(decoded.split("\u0000"));
  for (const paragraph of [...paragraphs(review.text ?? ""), ...paragraphs(review.response?.text ?? "")]) {
    if (!blocks.has(paragraph)) problems.push(`paragraph not found verbatim after decoding: ${paragraph}`);
  }
  return problems;
}
