import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pRetry from "p-retry";
import { buildSite } from "../src/build/build-site.ts";
import { MANIFEST_FILE } from "../src/build/manifest.ts";
import { ConfigError, parseConfig } from "../src/config/parse-config.ts";
import { DataValidationError } from "../src/data/problems.ts";
import type { BuildManifest } from "../src/schemas/manifest.ts";
import { siteUrls, TOPIC_PATHS } from "../src/site/urls.ts";

/**
 * `npm run publish`: build, then ping the hub (hub.mode=publish) for every topic whose content hash
 * changed. HUB_URL defaults to the hub under SITE_URL; HUB_PUBLISH_TOKEN is sent when set.
 */
function topicHashes(dist: string): Map<string, string> {
  const file = path.join(dist, MANIFEST_FILE);
  if (!existsSync(file)) return new Map();
  const manifest = JSON.parse(readFileSync(file, "utf8")) as BuildManifest;
  return new Map(manifest.entries.map((e) => [e.path, e.sha256]));
}

async function main(): Promise<number> {
  const config = parseConfig();
  const dist = path.resolve(config.DIST_DIR);
  const before = topicHashes(dist);
  const { manifest } = await buildSite({
    root: process.cwd(),
    dataDir: config.DATA_DIR,
    outDir: config.DIST_DIR,
    siteUrl: config.SITE_URL,
  });
  const after = new Map(manifest.entries.map((e) => [e.path, e.sha256]));
  const urls = siteUrls(config.SITE_URL);
  const changed = TOPIC_PATHS.filter((p) => before.get(p) !== after.get(p)).map((p) => `${urls.base}${p}`);
  if (changed.length === 0) {
    console.log("Built; no topic changed, so the hub is not pinged.");
    return 0;
  }
  const hubUrl = config.HUB_URL ?? urls.hub;
  const attempts = config.PUBLISH_ATTEMPTS;
  for (const topic of changed) {
    try {
      const answer = await pRetry(
        async () => {
          const response = await fetch(hubUrl, {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              ...(config.HUB_PUBLISH_TOKEN ? { authorization: `Bearer ${config.HUB_PUBLISH_TOKEN}` } : {}),
            },
            body: new URLSearchParams({ "hub.mode": "publish", "hub.url": topic }),
            signal: AbortSignal.timeout(10_000),
          });
          const text = await response.text();
          if (response.status >= 500 || response.status === 429)
            throw new Error(`hub answered ${response.status}: ${text}`);
          return { status: response.status, text };
        },
        {
          retries: attempts - 1,
          minTimeout: 500,
          maxTimeout: 5_000,
          onFailedAttempt: ({ error, attemptNumber, retriesLeft }) =>
            console.error(`Ping for ${topic} failed (attempt ${attemptNumber}, ${retriesLeft} left): ${error.message}`),
        },
      );
      if (answer.status >= 400) {
        console.error(`The hub refused the ping for ${topic}: ${answer.status} ${answer.text}`);
        return 1;
      }
      console.log(`Pinged ${hubUrl} for ${topic}: ${answer.text}`);
    } catch (error) {
      console.error(
        `The hub at ${hubUrl} never answered (${(error as Error).message}). The build is published; start the sidecar (it distributes changes it finds at start-up) or run npm run publish again.`,
      );
      return 1;
    }
  }
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof DataValidationError || error instanceof ConfigError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
