import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pRetry from "p-retry";
import { buildSite } from "../src/build/build-site.ts";
import { ConfigError, parseConfig } from "../src/config/parse-config.ts";
import { DataValidationError } from "../src/data/problems.ts";
import { siteUrls, TOPIC_PATHS } from "../src/site/urls.ts";

/**
 * `npm run publish`: build, then ping the hub (hub.mode=publish) for every topic whose content hash
 * changed. HUB_URL defaults to the hub under SITE_URL; HUB_PUBLISH_TOKEN is sent when set.
 */
/**
 * Topic hashes the hub was last told about, kept beside the output folder: the build replaces
 * dist/ before the pings, so a ping that failed would otherwise never be repeated.
 */
function pingedFile(dist: string): string {
  return path.join(path.dirname(dist), `.${path.basename(dist)}-pinged.json`);
}

function pingedHashes(dist: string): Map<string, string> | undefined {
  const file = pingedFile(dist);
  if (!existsSync(file)) return undefined;
  return new Map(Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, string>));
}

async function main(): Promise<number> {
  const config = parseConfig();
  const dist = path.resolve(config.DIST_DIR);
  // Never pinged from here before: ping every topic once (the hub ignores a topic that did not change).
  const before = pingedHashes(dist) ?? new Map<string, string>();
  const { manifest } = await buildSite({
    root: process.cwd(),
    dataDir: config.DATA_DIR,
    outDir: config.DIST_DIR,
    siteUrl: config.SITE_URL,
  });
  const after = new Map(manifest.entries.map((e) => [e.path, e.sha256]));
  const urls = siteUrls(config.SITE_URL);
  const changedPaths = TOPIC_PATHS.filter((p) => before.get(p) !== after.get(p));
  const changed = changedPaths.map((p) => `${urls.base}${p}`);
  const pinged = new Map(before);
  const remember = (topicPath: string) => {
    pinged.set(topicPath, after.get(topicPath) ?? "");
    writeFileSync(pingedFile(dist), `${JSON.stringify(Object.fromEntries(pinged), null, 2)}\n`);
  };
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
      remember(changedPaths[changed.indexOf(topic)] ?? "");
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
