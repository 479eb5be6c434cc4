import { hash } from "node:crypto";

/**
 * A cursor names the rank, in the query's ordered matches, of the first review of the next page, and
 * binds it to the data version and to the query, so it can neither drift to other data nor continue
 * another query.
 */
export interface CursorState {
  version: string;
  query: string;
  /** Rank of the first review of the next page. */
  offset: number;
}

/** A short digest of a canonical text (a query, parameters), for cursors and ETags (one-shot: no Hash object per request). */
export const digest = (text: string, length = 10): string => hash("sha256", text, "base64url").slice(0, length);

/** Canonical text of parameters: entries sorted by name, undefined ones left out. */
export function canonical(params: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(
    Object.entries(params)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/** Fingerprint of everything that selects and orders results (not limit, cursor, or whether facets are counted). */
export function queryFingerprint(params: Readonly<Record<string, unknown>>): string {
  const { limit: _limit, cursor: _cursor, facets: _facets, ...rest } = params;
  return digest(canonical(rest));
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(`2.${state.version}.${state.query}.${state.offset}`).toString("base64url");
}

/** Decodes a cursor; returns a reason string when it is malformed. */
export function decodeCursor(cursor: string): CursorState | string {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return "is not a cursor this service issued";
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split(".");
  const [format, version, query, offset] = parts;
  if (parts.length !== 4 || format !== "2" || !version || !query || !/^\d{1,9}$/.test(offset ?? "")) {
    return "is not a cursor this service issued";
  }
  const state = { version, query, offset: Number(offset) };
  // base64url decoding forgives trailing characters; only the exact encoding is accepted.
  return encodeCursor(state) === cursor ? state : "is not a cursor this service issued";
}
