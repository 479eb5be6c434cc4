import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FileDigest } from "@riverbend/shared/bundle/manifest.ts";
import type { Dataset } from "@riverbend/shared/schemas/dataset.ts";
import { cardCache } from "../site/og/card-cache.ts";
import { permalinkCardSvg } from "../site/og/card-svg.ts";
import { OWN_CARDS, ogPermalinkImage } from "../site/og/paths.ts";

export interface ReviewCards {
  digests: Map<string, FileDigest>;
  rendered: number;
  reused: number;
}

/**
 * Writes the own social card of each of the newest reviews (see OWN_CARDS), through the card cache
 * in `cacheDir`, and returns their digests with how many were rendered and how many reused. Past
 * `keep` cards (ten builds' worth, some 100 MB, by default) the cache keeps only this build's.
 */
export function writeReviewCards(
  outDir: string,
  dataset: Dataset,
  cacheDir: string,
  keep = 10 * OWN_CARDS,
): ReviewCards {
  const cache = cardCache(cacheDir);
  const digests = new Map<string, FileDigest>();
  dataset.reviews.slice(0, OWN_CARDS).forEach((review, position) => {
    const png = cache.png(permalinkCardSvg(dataset.business.name, review));
    const file = ogPermalinkImage(review, position).slice(1);
    mkdirSync(path.dirname(path.join(outDir, file)), { recursive: true });
    writeFileSync(path.join(outDir, file), png);
    digests.set(file, { sha256: createHash("sha256").update(png).digest("hex"), size: png.length });
  });
  cache.prune(keep);
  return { digests, rendered: cache.rendered, reused: cache.reused };
}
