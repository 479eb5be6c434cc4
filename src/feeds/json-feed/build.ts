import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { JsonFeed, JsonFeedItem } from "@riverbend/shared/schemas/json-feed.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { type FeedEntry, newestEntries } from "../shared/entry.ts";

function item(entry: FeedEntry, urls: SiteUrls): JsonFeedItem {
  const { review } = entry;
  return {
    id: entry.id,
    url: entry.url,
    title: entry.title,
    content_text: entry.text,
    content_html: entry.html,
    summary: entry.summary,
    date_published: entry.published,
    ...(entry.modified ? { date_modified: entry.modified } : {}),
    authors: [{ name: review.author.name }],
    tags: entry.tags,
    _review: {
      about: `${urls.openapi}#/components/schemas/ReviewFeedExtension`,
      rating: review.rating,
      best_rating: 5,
      technicians: [...review.technicians],
      services: [...review.services],
      service_area: review.service_area,
      verified: true,
      verification_method: review.verification.method,
    },
  };
}

/** JSON Feed 1.1 of the newest reviews (https://jsonfeed.org/version/1.1). */
export function buildJsonFeed(dataset: Dataset, urls: SiteUrls): JsonFeed {
  const { business } = dataset;
  return {
    version: "https://jsonfeed.org/version/1.1",
    title: `${business.name}: verified customer reviews`,
    home_page_url: urls.home,
    feed_url: urls.jsonFeed,
    description: `The newest verified customer reviews of ${business.name}, with the owner's replies.`,
    language: "en-US",
    authors: [{ name: business.name, url: business.url }],
    hubs: [{ type: "WebSub", url: urls.hub }],
    items: newestEntries(dataset, urls).map((entry) => item(entry, urls)),
  };
}
