import type { SiteUrls } from "@riverbend/shared/web/urls.ts";

/**
 * robots.txt: everything may be crawled. The reviews exist to be found and quoted, by search engines
 * and by agents answering questions (search=yes, ai-input=yes); the texts belong to the customers who
 * wrote them, so the business does not offer them for model training (ai-train=no). One group for
 * every crawler: RFC 9309 has a crawler obey only its most specific group, so per-crawler groups
 * repeating these lines would add nothing but a place to drift.
 */
export function buildRobotsTxt(urls: SiteUrls): string {
  return [
    "User-agent: *",
    "Content-Signal: search=yes, ai-input=yes, ai-train=no",
    "Allow: /",
    "",
    `Sitemap: ${urls.sitemap}`,
    "",
  ].join("\n");
}
