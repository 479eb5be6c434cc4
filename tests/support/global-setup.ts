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
  }
}

/** Builds the sample data once for every test file that needs a real build. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "reviews-test-"));
  const dist = path.join(dir, "dist");
  const run = await runBuild({ DATA_DIR: "data", DIST_DIR: dist, SITE_URL: TEST_SITE_URL });
  if (run.code !== 0) throw new Error(`sample build failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
  project.provide("sampleDist", dist);
  return () => rmSync(dir, { recursive: true, force: true });
}
