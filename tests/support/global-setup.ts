import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { runBuild } from "./run-build.ts";

/** Site URL the shared test build is made for; servers in tests listen elsewhere, which is fine. */
export const TEST_SITE_URL = "https://reviews.test";

declare module "vitest" {
  export interface ProvidedContext {
    sampleDist: string;
    /** The same data built for http://localhost, for servers addressed as localhost (MCP's Host guard). */
    localhostDist: string;
  }
}

/**
 * Builds the sample data once for every test file that needs a real build, for the test site URL
 * and for http://localhost: the sidecar serves a build only under the public URL it was made for.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "reviews-test-"));
  const build = async (name: string, siteUrl: string) => {
    const dist = path.join(dir, name);
    const run = await runBuild({ DATA_DIR: "data", DIST_DIR: dist, SITE_URL: siteUrl });
    if (run.code !== 0) throw new Error(`sample build failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
    return dist;
  };
  const [sample, localhost] = await Promise.all([
    build("dist", TEST_SITE_URL),
    build("dist-localhost", "http://localhost"),
  ]);
  project.provide("sampleDist", sample);
  project.provide("localhostDist", localhost);
  return () => rmSync(dir, { recursive: true, force: true });
}
