import { DISCOVERY_LINK } from "@riverbend/shared/registry/links.ts";

/**
 * Headers every answer carries, set by the Express app for everything it answers. Every answer, JSON, MCP, hub or file, points to llms.txt and the
 * API catalog (RFC 8288, RFC 9727); published files replace it with their own Link, which includes
 * the same two links.
 */
const ANSWER_HEADERS: Readonly<Record<string, string>> = { Link: DISCOVERY_LINK };
/** The same, as entries listed once (every request sets them). */
export const ANSWER_HEADER_ENTRIES: readonly (readonly [string, string])[] = Object.entries(ANSWER_HEADERS);
