import { createHash } from "node:crypto";
import type { SearchParams } from "../schemas/search.ts";

/**
 * A cursor names the last review of a page by its place in the chosen order, and binds that to the
 * data version and to the query, so it can neither drift to other data nor continue another query.
 */
export interface CursorState {
  version: string;
  query: string;
  /** Index into the sort order of the first review of the next page. */
  offset: number;
}

/** Fingerprint of everything that selects and orders results (not limit, not cursor). */
export function queryFingerprint(params: SearchParams): string {
  const { limit: _limit, cursor: _cursor, ...rest } = params;
  const canonical = JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1)));
  return createHash("sha256").update(canonical).digest("base64url").slice(0, 10);
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(`1.${state.version}.${state.query}.${state.offset}`).toString("base64url");
}

/** Decodes a cursor; returns a reason string when it is malformed. */
export function decodeCursor(cursor: string): CursorState | string {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return "is not a cursor this service issued";
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split(".");
  const [format, version, query, offset] = parts;
  if (parts.length !== 4 || format !== "1" || !version || !query || !/^\d{1,9}$/.test(offset ?? "")) {
    return "is not a cursor this service issued";
  }
  const state = { version, query, offset: Number(offset) };
  // base64url decoding forgives trailing characters; only the exact encoding is accepted.
  return encodeCursor(state) === cursor ? state : "is not a cursor this service issued";
}
