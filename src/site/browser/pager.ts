import { pageWindow } from "@riverbend/shared/web/pagination.ts";
import { type Listing, listingPath } from "./listings.ts";

/** Prev/next links (rel) and a bounded window of page numbers, the current one marked. */
export function pagerHtml(listing: Listing, page: number, pages: number): string {
  const link = (n: number) => listingPath(listing, n);
  const prev = page > 1 ? `<a href="${link(page - 1)}" rel="prev">Newer reviews</a>` : "<span></span>";
  const next = page < pages ? `<a href="${link(page + 1)}" rel="next">Older reviews</a>` : "<span></span>";
  const numbers =
    pages <= 1
      ? ""
      : `<ol class="pages">${pageWindow(page, pages)
          .map((n) => {
            if (n === null) return `<li aria-hidden="true">…</li>`;
            if (n === page) return `<li><a href="${link(n)}" aria-current="page">${n}</a></li>`;
            return `<li><a href="${link(n)}">${n}</a></li>`;
          })
          .join("")}</ol>`;
  return `<nav class="pager" id="review-pager" aria-label="Pages">${prev}${numbers}${next}</nav>`;
}
