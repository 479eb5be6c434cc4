import { readFileSync } from "node:fs";
import path from "node:path";
import type { Bundle } from "../bundle/load-bundle.ts";

/** A topic's current content as served: the exact bytes and the exact Content-Type string. */
export interface TopicContent {
  body: Buffer;
  contentType: string;
  sha256: string;
}

/** Reads a topic's file from the build; deliveries are byte-identical to a GET of the topic. */
export function topicContent(bundle: Bundle, topicPath: string): TopicContent | undefined {
  const entry = bundle.entries.get(topicPath);
  if (!entry) return undefined;
  return {
    body: readFileSync(path.join(bundle.dir, entry.file)),
    contentType: entry.content_type,
    sha256: entry.sha256,
  };
}
