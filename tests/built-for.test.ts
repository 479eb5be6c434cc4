import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { assertBuiltFor } from "@riverbend/shared/bundle/built-for.ts";
import { afterAll, describe, expect, inject, it } from "vitest";
import { TEST_SITE_URL } from "./support/global-setup.ts";
import { runBuild, runCommand } from "./support/run-build.ts";
import { type SidecarProcess, startSidecarProcess, stopSidecars } from "./support/sidecar-process.ts";

/** A build carries its public URL in every document: it is served only under that URL. */
const work = mkdtempSync(path.join(tmpdir(), "reviews-built-for-"));
const sidecars = new Set<SidecarProcess>();
afterAll(async () => {
  await stopSidecars(sidecars);
  rmSync(work, { recursive: true, force: true });
});

describe("a build made for another public URL", () => {
  it("is refused with the command that rebuilds it", () => {
    expect(() => assertBuiltFor("http://localhost:4321", "http://localhost:8080", "dist")).toThrow(
      "dist was built for http://localhost:4321, but this server's public URL is http://localhost:8080. Rebuild for it (SITE_URL=http://localhost:8080 npm run build), or serve with SITE_URL=http://localhost:4321.",
    );
    expect(() => assertBuiltFor("https://reviews.test", "https://reviews.test", "dist")).not.toThrow();
  });

  it("stops the sidecar at start-up", async () => {
    const run = await runCommand(process.execPath, ["--import", "tsx", "packages/server/src/main.ts"], {
      env: { PORT: "0", SITE_URL: "https://other.test", DIST_DIR: inject("sampleDist"), STATE_DIR: work },
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`was built for ${TEST_SITE_URL}, but this server's public URL is https://other.test.`);
    expect(run.stderr).toContain("SITE_URL=https://other.test npm run build");
    expect(run.stdout).not.toContain("listening on");
  });

  it("is not taken up by a running sidecar, which says so once, in its log and on /readyz", async () => {
    const dist = path.join(work, "dist");
    cpSync(inject("sampleDist"), dist, { recursive: true });
    const sidecar = await startSidecarProcess({
      env: { SITE_URL: TEST_SITE_URL, DIST_DIR: dist, STATE_DIR: work, RELOAD_INTERVAL_MS: "100", LOG_LEVEL: "warn" },
      registry: sidecars,
    });
    // `npm run build` in another terminal, without the server's SITE_URL: built for localhost:4321.
    const build = await runBuild({ DIST_DIR: dist, SITE_URL: "", PORT: "" });
    expect(build.code, build.stderr).toBe(0);
    expect(build.stderr).toContain(
      `Warning: the previous build was for ${TEST_SITE_URL}; this one is for http://localhost:4321 because SITE_URL is not set.`,
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    const lines = sidecar
      .output()
      .split("\n")
      .filter((l) => l.includes("not serving the new build"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("was built for http://localhost:4321");
    const ready = await fetch(`${sidecar.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { reason: string }).reason).toContain(
      `Rebuild for it (SITE_URL=${TEST_SITE_URL} npm run build)`,
    );
  });
});
