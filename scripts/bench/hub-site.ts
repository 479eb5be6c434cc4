import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataWithOneMoreReview, distDocument, readHubState, swapDist } from "../../tests/support/hub-process-state.ts";
import { testCertificate } from "../../tests/support/hub-process-subscriber.ts";
import { runBuild } from "../../tests/support/run-build.ts";

// The bench sets up its sites, certificate and state checks exactly as the hub's process tests do.
export { swapDist };

/** A self-signed certificate for 127.0.0.1 (its own CA), written as PEM files. */
export async function writeCertificate(dir: string): Promise<{ keyFile: string; certFile: string }> {
  const { key, cert } = await testCertificate();
  mkdirSync(dir, { recursive: true });
  const keyFile = path.join(dir, "subscriber.key");
  const certFile = path.join(dir, "subscriber.pem");
  writeFileSync(keyFile, key);
  writeFileSync(certFile, cert);
  return { keyFile, certFile };
}

async function build(dataDir: string, distDir: string, siteUrl: string): Promise<void> {
  const run = await runBuild({ DATA_DIR: dataDir, DIST_DIR: distDir, SITE_URL: siteUrl });
  if (run.code !== 0) throw new Error(`build of ${distDir} failed:\n${run.stdout}${run.stderr}`);
}

/**
 * Two builds of the sample data for `siteUrl`: as it is, and with one more (newest) review, so the
 * 50-item Atom feed differs between them. Built in parallel.
 */
export async function buildTwoSites(work: string, siteUrl: string): Promise<{ first: string; next: string }> {
  const data = dataWithOneMoreReview(path.join(work, "data-next"), "2026-11-21-hub-bench");
  const first = path.join(work, "dist-first");
  const next = path.join(work, "dist-next");
  // Both builds finish (or fail) before this returns, so nothing writes into `work` after a failure.
  const builds = await Promise.allSettled([build("data", first, siteUrl), build(data, next, siteUrl)]);
  for (const result of builds) if (result.status === "rejected") throw result.reason;
  return { first, next };
}

/** Hash and size of a topic document of a build. */
export function documentOf(dist: string, urlPath: string): { sha256: string; size: number } {
  const { sha256, body } = distDocument(dist, urlPath);
  return { sha256, size: body.length };
}

/** Subscriptions in the hub's SQLite file, read through a read-only connection. */
export function countSubscriptions(stateDir: string): number {
  return readHubState(stateDir).subscriptions.length;
}
