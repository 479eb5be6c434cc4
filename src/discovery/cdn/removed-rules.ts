import type { RemovedReview } from "@riverbend/shared/schemas/removed-review.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import type { HeaderRule } from "./header-rules.ts";

/** The nginx snippet the build writes next to `_headers`; the nginx example includes it. */
export const NGINX_REMOVED_FILE = "nginx-removed.conf";

function permalinkPath(urls: SiteUrls, id: string): string {
  return urls.permalink(id).slice(urls.base.length);
}

/**
 * `_headers` cannot set a status, so removed reviews' pages get `X-Robots-Tag: noindex` there (the
 * page also says so in a meta tag). No other rule sets that header, so the rules do not overlap.
 */
export function removedHeaderRules(removed: readonly RemovedReview[], urls: SiteUrls): HeaderRule[] {
  return removed.map((r) => ({ pattern: permalinkPath(urls, r.id), headers: { "X-Robots-Tag": "noindex" } }));
}

/**
 * nginx locations answering 410 Gone at each removed review's permalink, with the "removed on DATE"
 * page as the body (error_page keeps the 410). Exact locations win over the `/reviews/` prefix.
 */
export function renderNginxRemoved(removed: readonly RemovedReview[], urls: SiteUrls): string {
  const blocks = removed.map((r) => {
    const path = permalinkPath(urls, r.id);
    if (!/^[A-Za-z0-9/_.%-]+$/.test(path)) throw new Error(`cannot write ${path} into an nginx location`);
    return [
      `location = ${path} {`,
      `  add_header X-Robots-Tag noindex always;`,
      `  error_page 410 ${path}index.html;`,
      "  return 410;",
      "}",
    ].join("\n");
  });
  return `# Written by the build: removed reviews answer 410 Gone (src/discovery/cdn/removed-rules.ts).\n${blocks.join("\n")}\n`;
}
