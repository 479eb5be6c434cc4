import type { HeaderRule } from "./header-rules.ts";

/** The `_headers` file's name in the build folder; it is configuration, never a published document. */
export const HEADERS_FILE = "_headers";

/** `_headers` for Cloudflare Pages and Netlify: one block per rule, headers indented under the path. */
export function renderHeadersFile(rules: readonly HeaderRule[]): string {
  const blocks = rules.map(({ pattern, headers }) =>
    [pattern, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join("\n"),
  );
  return `# Written by the build from packages/shared/src/registry/static-headers.ts: the headers the sidecar sends.\n${blocks.join("\n\n")}\n`;
}
