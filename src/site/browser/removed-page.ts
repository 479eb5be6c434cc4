import type { RemovedReview } from "@riverbend/shared/schemas/removed-review.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { escapeHtml as h } from "../html.ts";
import { pageShell } from "../render/page-shell.ts";

/** Tells search engines to drop the page; the host adds 410 Gone and the same header where it can. */
export const NOINDEX = `<meta name="robots" content="noindex">`;

/**
 * What a removed review's permalink shows: that it was removed and when, nothing of the review
 * (neither the reason: that stays in the data folder). Marked noindex so search engines drop it.
 */
export function removedPage(businessName: string, urls: SiteUrls, removed: RemovedReview): Buffer[] {
  const shell = pageShell({
    title: `Review removed · ${businessName}`,
    description: `This review was removed on ${removed.removed}.`,
    canonical: urls.permalink(removed.id),
    businessName,
    urls,
    head: NOINDEX,
  });
  const body =
    `<h1>Review removed</h1><p>This review was removed on <time datetime="${h(removed.removed)}">${h(removed.removed)}</time>.</p>` +
    `<p><a href="/reviews/">All reviews</a></p>`;
  return [Buffer.from(`${shell.start}${body}${shell.end}`)];
}
