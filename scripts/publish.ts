import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MANIFEST_FILE } from "@riverbend/shared/bundle/manifest.ts";
import { ConfigError, parseConfig } from "@riverbend/shared/config/parse-config.ts";
import { TOPIC_PATHS } from "@riverbend/shared/registry/documents.ts";
import type { BuildManifest } from "@riverbend/shared/schemas/manifest.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { buildChanges, describeBuildChanges } from "../src/build/build-changes.ts";
import { buildSite } from "../src/build/build-site.ts";
import { DataValidationError } from "../src/data/problems.ts";
import { distributedTopics, PingError, pingHub } from "./publish/ping-hub.ts";
import { describeTopic, topicOutcome } from "./publish/topic-report.ts";

/**
 * `npm run publish`: build, say what the build changed, then ping the hub (hub.mode=publish) for
 * every topic whose content changed since the last successful ping and say, per topic, whether
 * subscribers are notified. HUB_URL defaults to the hub under SITE_URL; HUB_PUBLISH_TOKEN is sent when set.
 */

/**
 * Topic hashes the hub was last told about, kept beside the output folder: the build replaces
 * dist/ before the pings, so a ping that failed would otherwise never be repeated.
 */
function pingedFile(dist: string): string {
  return path.join(path.dirname(dist), `.${path.basename(dist)}-pinged.json`);
}

function readJson<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : undefined;
}

async function main(): Promise<number> {
  const config = parseConfig();
  const dist = path.resolve(config.DIST_DIR);
  // Never pinged from here before: ping every topic once (the hub ignores a topic that did not change).
  const before = new Map(Object.entries(readJson<Record<string, string>>(pingedFile(dist)) ?? {}));
  const previousBuild = readJson<BuildManifest>(path.join(dist, MANIFEST_FILE));
  const started = performance.now();
  const { manifest, dataset } = await buildSite({
    root: process.cwd(),
    dataDir: config.DATA_DIR,
    outDir: config.DIST_DIR,
    siteUrl: config.SITE_URL,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Built ${manifest.entries.length} files from ${dataset.reviews.length} reviews (${dataset.removed.length} removed) in ${seconds} s; against the previous build:`,
  );
  for (const line of describeBuildChanges(buildChanges(previousBuild, manifest))) console.log(line);

  const after = new Map(manifest.entries.map((e) => [e.path, e.sha256]));
  const urls = siteUrls(config.SITE_URL);
  const changedPaths = TOPIC_PATHS.filter((p) => before.get(p) !== after.get(p));
  if (changedPaths.length === 0) {
    console.log("Built; no topic changed, so the hub is not pinged.");
    for (const p of TOPIC_PATHS) console.log(describeTopic(`${urls.base}${p}`, "unchanged"));
    return 0;
  }
  const hubUrl = config.HUB_URL ?? urls.hub;
  const pinged = new Map(before);
  const distributing = new Set<string>();
  for (const topicPath of changedPaths) {
    const topic = `${urls.base}${topicPath}`;
    try {
      const answer = await pingHub(hubUrl, topic, {
        token: config.HUB_PUBLISH_TOKEN,
        attempts: config.PUBLISH_ATTEMPTS,
      });
      console.log(`Pinged ${hubUrl} for ${topic}: ${answer.text}`);
      for (const t of distributedTopics(answer.text)) distributing.add(t);
    } catch (error) {
      if (!(error instanceof PingError)) throw error;
      console.error(error.message);
      return 1;
    }
    pinged.set(topicPath, after.get(topicPath) ?? "");
    writeFileSync(pingedFile(dist), `${JSON.stringify(Object.fromEntries(pinged), null, 2)}\n`);
  }
  console.log("Subscribers, per topic:");
  for (const p of TOPIC_PATHS) {
    const topic = `${urls.base}${p}`;
    console.log(describeTopic(topic, topicOutcome(changedPaths.includes(p), distributing.has(topic))));
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
