import type { HeaderRule } from "./header-rules.ts";

/** Paths the sidecar answers; everything else is a file of dist/. */
export const PROXIED_LOCATIONS = ["^~ /api/reviews/", "^~ /api/websub/", "= /mcp"] as const;

// A page is its folder's index.html, served in the location that matched (no internal redirect).
// biome-ignore lint/suspicious/noTemplateCurlyInString: nginx's variable syntax, not a template.
const TRY_FILES = "    try_files $uri ${uri}index.html =404;";

/** A value in nginx quotes: single, or double where it holds single quotes (a CSP's 'none'). */
function quoted(value: string): string {
  if (/[$\\]/.test(value) || (value.includes("'") && value.includes('"'))) {
    throw new Error(`cannot quote ${value} for nginx`);
  }
  return value.includes("'") ? `"${value}"` : `'${value}'`;
}

function location(rule: HeaderRule, common: Record<string, string>): string {
  const match = rule.pattern.endsWith("*") ? `^~ ${rule.pattern.slice(0, -1)}` : `= ${rule.pattern}`;
  const { "Content-Type": type, ...rest } = rule.headers;
  // add_header in a location replaces every inherited one, so each location repeats the common set.
  const lines = Object.entries({ ...common, ...rest }).map(
    ([name, value]) => `    add_header ${name} ${quoted(value)};`,
  );
  return [
    `  location ${match} {`,
    ...(type ? [`    types { }`, `    default_type ${quoted(type)};`] : []),
    ...lines,
    TRY_FILES,
    "  }",
  ].join("\n");
}

/**
 * An example nginx server block serving dist/ with the headers of `_headers` (the same rules) and
 * proxying the sidecar's paths. Exact and `^~` prefix locations win over regular expressions, and
 * the longest prefix wins, so /api/reviews/ reaches the sidecar even though /api/ is a page.
 */
export function renderNginxConf(rules: readonly HeaderRule[], host: string): string {
  const [common, ...specific] = rules;
  const commonHeaders = common?.headers ?? {};
  const fallback = Object.entries(commonHeaders).map(([name, value]) => `    add_header ${name} ${quoted(value)};`);
  const proxied = PROXIED_LOCATIONS.map(
    (match) => `  location ${match} {\n    proxy_pass http://reviews_sidecar;\n  }`,
  );
  return `${[
    "# Example nginx configuration for the reviews service, generated from the same header rules as",
    "# dist/_headers (src/discovery/cdn/). Regenerate: npx vitest run tests/discovery-cdn.test.ts -u",
    "# nginx computes its own ETag and Last-Modified; the sidecar's come from the data instead.",
    "upstream reviews_sidecar {",
    "  # The sidecar (npm start without SERVE_STATIC, or the container) on its PORT.",
    "  server 127.0.0.1:8080;",
    "  keepalive 16;",
    "}",
    "",
    "server {",
    "  listen 443 ssl;",
    "  http2 on;",
    `  server_name ${host};`,
    `  # ssl_certificate /etc/ssl/${host}.pem; ssl_certificate_key /etc/ssl/${host}.key;`,
    "  root /srv/reviews/dist;",
    "  etag on;",
    "  gzip on;",
    "  gzip_types application/json application/feed+json application/atom+xml application/xml text/markdown text/css text/javascript application/linkset+json;",
    "",
    "  proxy_http_version 1.1;",
    '  proxy_set_header Connection "";',
    "  # The MCP endpoint checks Host against SITE_URL's host name (DNS-rebinding protection).",
    "  proxy_set_header Host $host;",
    "  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
    "  proxy_set_header X-Forwarded-Proto $scheme;",
    "  # MCP answers can take a while on large data; the hub reads small form bodies.",
    "  proxy_read_timeout 60s;",
    "",
    ...proxied,
    "",
    "  # Build artefacts, not documents.",
    "  location = /build-manifest.json { return 404; }",
    "  location = /_headers { return 404; }",
    "  location = /nginx-removed.conf { return 404; }",
    "",
    "  # Removed reviews answer 410 Gone; the build writes this file (empty when none was removed).",
    "  include /srv/reviews/dist/nginx-removed.conf;",
    "",
    ...specific.map((rule) => location(rule, commonHeaders)),
    "",
    "  location / {",
    ...fallback,
    TRY_FILES,
    "  }",
    "}",
  ].join("\n")}\n`;
}
