import { MCP_REVISIONS } from "@riverbend/shared/mcp-catalog/protocol.ts";
import { PUBLISHED_DOCUMENTS, SERVER_ENDPOINTS } from "@riverbend/shared/registry/documents.ts";

export interface BannerInput {
  /** The address the server listens on, as a URL. */
  local: string;
  siteUrl: string;
  serveStatic: boolean;
  files: number;
  reviews: number;
  metricsToken: boolean;
}

const line = (path: string, text: string) => `  ${path.padEnd(36)} ${text}`;

/** The start-up banner: every endpoint this process answers, from the document registry. */
export function startupBanner(input: BannerInput): string {
  const lines = [`Reviews service listening on ${input.local} (public URL ${input.siteUrl})`];
  if (input.serveStatic) {
    lines.push(`  ${input.files} prerendered files:`);
    for (const row of PUBLISHED_DOCUMENTS) lines.push(line(row.path, row.title));
  } else {
    lines.push("  static documents are not served here (SERVE_STATIC=false): deploy dist/ to a CDN");
  }
  for (const row of SERVER_ENDPOINTS) {
    const detail =
      row.path === "/mcp"
        ? ` (revisions ${MCP_REVISIONS.join(", ")})`
        : row.path === "/api/reviews/search"
          ? ` (${input.reviews} reviews)`
          : row.path === "/metrics"
            ? ` (${input.metricsToken ? "bearer token" : "open"})`
            : "";
    lines.push(line(`${row.method} ${row.path}`, `${row.title}${detail}`));
  }
  return lines.join("\n");
}
