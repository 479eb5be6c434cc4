/** Credentials a log line's object may carry: as headers, or as fields named like secrets. */
const HEADERS = ["authorization", '["proxy-authorization"]', "cookie", '["set-cookie"]', '["mcp-session-id"]'];
const FIELDS = ["authorization", "cookie", "token", "secret", "password", '["hub.secret"]'];

/** `prefix.field`, or `prefix["field"]` for names that need brackets; a bare name at the top level. */
const under = (prefix: string, field: string) =>
  prefix === "" ? field : field.startsWith("[") ? `${prefix}${field}` : `${prefix}.${field}`;

/**
 * pino's `redact` paths, applied to every line of the process's logger: headers a line carries (at
 * the top, or in an error or in an error's request or response) and fields named like secrets.
 * The access log's `req` and `res` never carry headers (access-log.ts writes three fields of the
 * request), and are not listed: a path under a key a line has costs pino's redaction more than the
 * rest of the line (fixed-mix search CPU per request, bench:api).
 */
export const LOG_REDACT_PATHS = [
  ...["", "err", "err.request", "err.response", "err.config"].flatMap((owner) =>
    HEADERS.map((header) => under(owner === "" ? "headers" : `${owner}.headers`, header)),
  ),
  ...["", "err"].flatMap((owner) => FIELDS.map((field) => under(owner, field))),
];
