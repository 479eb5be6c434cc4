/**
 * Validates a JSON Feed 1.1 document, so the test suite can prove the generated
 * JSON Feed is valid: Ajv 8 (draft-07) + ajv-formats with `jsonfeed-schema`'s
 * v1.1 schema, plus the rules that schema cannot express.
 */
import { createRequire } from "node:module";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsPlugin from "ajv-formats";

export const JSON_FEED_VERSION = "https://jsonfeed.org/version/1.1";
const DEFAULT_MAX_ITEMS = 50;

// jsonfeed-schema ships CommonJS + JSON only; schema-v1.1.json is the JSON Feed 1.1 schema (draft-07).
const require = createRequire(import.meta.url);
const jsonFeedSchema = require("jsonfeed-schema/schema-v1.1.json") as Record<string, unknown>;

// ajv-formats is CommonJS with `exports.default`; depending on the loader the
// default import is the plugin or the module namespace.
type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats: FormatsPlugin =
  (addFormatsPlugin as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsPlugin as unknown as FormatsPlugin);

let compiledSchema: ValidateFunction | undefined;
function jsonFeedValidator(): ValidateFunction {
  if (compiledSchema === undefined) {
    // Ajv's default class is draft-07, which is what jsonfeed-schema declares.
    const ajv = new Ajv({ allErrors: true });
    addFormats(ajv);
    compiledSchema = ajv.compile(jsonFeedSchema);
  }
  return compiledSchema;
}

function formatAjvError(error: ErrorObject): string {
  const where = error.instancePath === "" ? "(feed)" : error.instancePath;
  const params = error.params as Record<string, unknown>;
  let detail = "";
  if (typeof params.additionalProperty === "string") detail = `: "${params.additionalProperty}"`;
  else if (Array.isArray(params.allowedValues)) detail = `: ${JSON.stringify(params.allowedValues)}`;
  return `schema: ${where} ${error.message ?? error.keyword}${detail}`;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/**
 * RFC 3339 date-time with uppercase T and a zone (Z or ±hh:mm), fields in range.
 * (Stricter than RFC 3339, which also allows lowercase t/z, and than
 * ajv-formats, which also allows a space separator and offsets without a colon.)
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;
function isRfc3339WithZone(value: string): boolean {
  const m = RFC3339.exec(value);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return !Number.isNaN(Date.parse(value));
}

const EXTENSION_NAME = /^_[A-Za-z][^.]*$/;

/** JSON Feed 1.1 "Extensions": name `_` + letter, no `.` in name or member keys; only the name starts with `_`. */
function checkExtensions(object: Json, where: string, errors: string[]): void {
  for (const [key, value] of Object.entries(object)) {
    if (!key.startsWith("_")) continue;
    const at = `${where}.${key}`;
    if (!EXTENSION_NAME.test(key)) {
      errors.push(`${at}: extension names must start with "_" followed by a letter and contain no "."`);
    }
    if (!isObject(value)) {
      errors.push(`${at}: an extension must be an object`);
      continue;
    }
    for (const member of Object.keys(value)) {
      if (member.includes(".")) errors.push(`${at}: extension member key "${member}" must not contain "."`);
      if (member.startsWith("_"))
        errors.push(`${at}: extension member key "${member}" must not start with "_" (only the extension name does)`);
    }
  }
}

function checkExtensionsIn(list: unknown, where: string, errors: string[]): void {
  if (!Array.isArray(list)) return;
  list.forEach((entry, index) => {
    if (isObject(entry)) checkExtensions(entry, `${where}[${index}]`, errors);
  });
}

/** The rules jsonfeed-schema cannot express (or expresses more loosely than we publish). */
function extraRules(feed: unknown, maxItems: number): string[] {
  const errors: string[] = [];
  if (!isObject(feed)) return ["feed: must be a JSON object"];

  if (feed.version !== JSON_FEED_VERSION) {
    errors.push(`version: must be exactly "${JSON_FEED_VERSION}", got ${JSON.stringify(feed.version)}`);
  }
  for (const key of ["home_page_url", "feed_url"] as const) {
    if (!isNonEmptyString(feed[key])) errors.push(`${key}: required for a feed on the public web`);
  }
  if (feed.next_url !== undefined && feed.next_url === feed.feed_url) {
    errors.push("next_url: must not be the same as feed_url");
  }

  const hubs = feed.hubs;
  const webSub = Array.isArray(hubs) ? hubs.filter((hub) => isObject(hub) && hub.type === "WebSub") : [];
  if (webSub.length === 0) errors.push('hubs: must contain a hub with type "WebSub"');
  for (const hub of webSub) {
    if (isObject(hub) && !isNonEmptyString(hub.url)) errors.push('hubs: the "WebSub" hub needs a url');
  }

  checkExtensions(feed, "feed", errors);
  checkExtensionsIn(feed.authors, "authors", errors);
  checkExtensionsIn(hubs, "hubs", errors);
  if (isObject(feed.author)) checkExtensions(feed.author, "author", errors);

  const items = feed.items;
  if (!Array.isArray(items)) return errors; // the schema reports it

  if (items.length > maxItems) errors.push(`items: ${items.length} items, more than the limit of ${maxItems}`);

  const seen = new Map<string, number>();
  let previous: { index: number; time: number } | undefined;
  items.forEach((item, index) => {
    const at = `items[${index}]`;
    if (!isObject(item)) return; // the schema reports it

    const id = item.id;
    if (!isNonEmptyString(id)) {
      errors.push(`${at}.id: must be a non-empty string (readers discard items without one)`);
    } else {
      const first = seen.get(id);
      if (first !== undefined) errors.push(`${at}.id: duplicate id ${JSON.stringify(id)} (also items[${first}])`);
      else seen.set(id, index);
    }

    if (!isNonEmptyString(item.url)) errors.push(`${at}.url: required (the item's permalink)`);

    for (const key of ["date_published", "date_modified"] as const) {
      const value = item[key];
      if (value === undefined) continue;
      if (typeof value !== "string" || !isRfc3339WithZone(value)) {
        errors.push(
          `${at}.${key}: must be an RFC 3339 date-time with uppercase T and a zone (Z or ±hh:mm), got ${JSON.stringify(value)}`,
        );
      }
    }

    const published = item.date_published;
    if (published === undefined) {
      errors.push(`${at}.date_published: required (items are ordered newest first by it)`);
    } else if (typeof published === "string" && isRfc3339WithZone(published)) {
      const time = Date.parse(published);
      if (previous !== undefined && time > previous.time) {
        errors.push(
          `${at}: items must be newest first by date_published; ${published} is newer than items[${previous.index}]`,
        );
      }
      previous = { index, time };
    }

    checkExtensions(item, at, errors);
    checkExtensionsIn(item.authors, `${at}.authors`, errors);
    checkExtensionsIn(item.attachments, `${at}.attachments`, errors);
    if (isObject(item.author)) checkExtensions(item.author, `${at}.author`, errors);
  });

  return errors;
}

/**
 * Validates a parsed JSON Feed 1.1 document against jsonfeed-schema's v1.1
 * schema and the extra rules. Returns human-readable errors; empty = valid.
 */
export function validateJsonFeed(feed: unknown, opts: { maxItems?: number } = {}): string[] {
  const validate = jsonFeedValidator();
  const schemaErrors = validate(feed) ? [] : (validate.errors ?? []).map(formatAjvError);
  const errors = [...schemaErrors, ...extraRules(feed, opts.maxItems ?? DEFAULT_MAX_ITEMS)];
  return [...new Set(errors)];
}
