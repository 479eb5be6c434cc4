import { TOPIC_PATHS, type TopicPath } from "../registry/documents.ts";
import type { SiteUrls } from "../web/urls.ts";

/** The hub's topics: exactly the three self URLs the documents advertise, mapped to their paths. */
export function topicUrls(urls: SiteUrls): ReadonlyMap<string, TopicPath> {
  return new Map(TOPIC_PATHS.map((path) => [`${urls.base}${path}`, path]));
}
