import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import { escapeHtml as x } from "../../site/html.ts";
import { type FeedEntry, feedId, newestEntries } from "../shared/entry.ts";

function entryXml(entry: FeedEntry): string {
  const lines = [
    "  <entry>",
    `    <id>${x(entry.id)}</id>`,
    `    <title type="text">${x(entry.title)}</title>`,
    `    <link rel="alternate" type="text/html" href="${x(entry.url)}"/>`,
    `    <published>${entry.published}</published>`,
    `    <updated>${entry.updated}</updated>`,
    `    <author><name>${x(entry.review.author.name)}</name></author>`,
    ...entry.tags.map((tag) => `    <category term="${x(tag)}"/>`),
    `    <summary type="text">${x(entry.summary)}</summary>`,
    `    <content type="html">${x(entry.html)}</content>`,
    "  </entry>",
  ];
  return lines.join("\n");
}

/** Atom 1.0 (RFC 4287) feed of the newest reviews, with WebSub discovery links. */
export function buildAtomFeed(dataset: Dataset, urls: SiteUrls): string {
  const { business } = dataset;
  const entries = newestEntries(dataset, urls);
  // The feed changes when an entry changes, so its updated time is the latest entry's.
  const updated = entries.map((e) => e.updated).sort((a, b) => Date.parse(b) - Date.parse(a))[0];
  const head = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US">',
    `  <id>${x(feedId(business, "atom"))}</id>`,
    `  <title type="text">${x(`${business.name}: verified customer reviews`)}</title>`,
    `  <subtitle type="text">${x(`The newest verified customer reviews of ${business.name}, with the owner's replies.`)}</subtitle>`,
    `  <updated>${updated ?? "1970-01-01T00:00:00Z"}</updated>`,
    `  <author><name>${x(business.name)}</name><uri>${x(business.url)}</uri></author>`,
    `  <link rel="self" type="application/atom+xml" href="${x(urls.atomFeed)}"/>`,
    `  <link rel="alternate" type="text/html" href="${x(urls.home)}"/>`,
    `  <link rel="hub" href="${x(urls.hub)}"/>`,
  ];
  return `${[...head, ...entries.map(entryXml), "</feed>"].join("\n")}\n`;
}
