import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Lockfile, missingOptionalEntries } from "../scripts/lockfile/missing-entries.ts";
import { ROOT, runCommand, runScript } from "./support/run-build.ts";

/** The committed lockfile must install on every platform with `npm ci` and survive `npm install`. */
const readLock = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Lockfile;

describe("package-lock.json", () => {
  it("records every platform's optional packages (esbuild, Biome, Astro's compiler binding...)", () => {
    expect(missingOptionalEntries(readLock(path.join(ROOT, "package-lock.json")))).toEqual([]);
  });

  it("the check names what a Linux-only lockfile lacks, resolving nested packages as Node does", async () => {
    const file = path.join(ROOT, "tests/fixtures/lockfile/linux-only.json");
    expect(missingOptionalEntries(readLock(file))).toEqual([
      "node_modules/@biomejs/biome -> @biomejs/cli-darwin-arm64",
    ]);
    const run = await runScript("scripts/check-lockfile.ts", [file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("lacks 1 optional (platform) packages, so npm ci fails on other systems");
  });

  describe("after npm install", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "reviews-lockfile-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("is byte for byte unchanged", async () => {
      const workspaces = readdirSync(path.join(ROOT, "packages")).map((name) => `packages/${name}/package.json`);
      for (const name of ["package.json", "package-lock.json", ...workspaces]) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        copyFileSync(path.join(ROOT, name), path.join(dir, name));
      }
      const npm = process.platform === "win32" ? "npm.cmd" : "npm";
      const run = await runCommand(
        npm,
        ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(readFileSync(path.join(dir, "package-lock.json"), "utf8")).toBe(
        readFileSync(path.join(ROOT, "package-lock.json"), "utf8"),
      );
    });
  });
});
