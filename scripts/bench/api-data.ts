import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { MANIFEST_FILE } from "@riverbend/shared/bundle/manifest.ts";
import { runScript } from "./api-process.ts";

export const SITE_URL = "https://reviews.example.com";

/**
 * A built synthetic data set of `size` reviews: the data in `.cache/bench/data-N` (shared with
 * bench:build), the build in `.cache/bench/api-dist-N`. Both are made only when missing (or on rebuild).
 */
export async function builtDataSet(work: string, size: number, rebuild: boolean): Promise<string> {
  const data = path.join(work, `data-${size}`);
  const dist = path.join(work, `api-dist-${size}`);
  if (!existsSync(path.join(data, "business.json"))) {
    console.error(`bench:api: writing ${size} synthetic reviews to ${data}`);
    const synth = await runScript(
      "scripts/synth.ts",
      ["--reviews", String(size), "--out", data, "--seed", "42"],
      {},
      600_000,
      true,
    );
    if (synth.code !== 0) throw new Error(`synth of ${size} failed:\n${synth.stderr}`);
  }
  if (rebuild || !existsSync(path.join(dist, MANIFEST_FILE))) {
    console.error(`bench:api: building ${data} into ${dist}`);
    rmSync(dist, { recursive: true, force: true });
    const build = await runScript(
      "scripts/build.ts",
      [],
      { DATA_DIR: data, DIST_DIR: dist, SITE_URL, ASTRO_TELEMETRY_DISABLED: "1", LOG_LEVEL: "error" },
      900_000,
      true,
    );
    if (build.code !== 0) throw new Error(`build of ${size} failed:\n${build.stderr}`);
  }
  return dist;
}
