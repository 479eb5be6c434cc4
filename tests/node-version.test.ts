import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { ROOT, runCommand } from "./support/run-build.ts";

/** `npm start` and `npm run build` on a Node older than package.json's engines say which is needed. */
const { nodeVersionProblem } = createRequire(import.meta.url)("../scripts/check-node.cjs") as {
  nodeVersionProblem: (version: string, range: string) => string;
};

describe("the Node version check", () => {
  it("passes the versions package.json allows and names the one needed otherwise", () => {
    expect(nodeVersionProblem("22.13.0", ">=22.13.0")).toBe("");
    expect(nodeVersionProblem("24.1.0", ">=22.13.0")).toBe("");
    expect(nodeVersionProblem("22.12.9", ">=22.13.0")).toContain("This project needs Node.js >=22.13.0");
    expect(nodeVersionProblem("20.20.2", ">=22.13.0")).toContain("this is Node.js 20.20.2");
  });

  it("is silent on this Node", async () => {
    const run = await runCommand(process.execPath, ["scripts/check-node.cjs"]);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, "", ""]);
  });

  // Debian's own Node (20 on bookworm) when the machine has one: the real old runtime and npm.
  const old = spawnSync("/usr/bin/node", ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
  const isOld = /^v(\d+)\.(\d+)/.exec(old);
  const older = isOld !== null && (Number(isOld[1]) < 22 || (Number(isOld[1]) === 22 && Number(isOld[2]) < 13));
  it.skipIf(!older || spawnSync("/usr/bin/npm", ["--version"]).status !== 0)(
    "npm start under an older Node stops before building and says which Node is needed",
    async () => {
      const run = await runCommand("/usr/bin/npm", ["start"], {
        cwd: ROOT,
        env: { PATH: "/usr/bin:/bin", DIST_DIR: "/nonexistent" },
        timeoutMs: 60_000,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `This project needs Node.js >=22.13.0 (package.json "engines"); this is Node.js ${old.slice(1)}.`,
      );
      expect(run.stdout + run.stderr).not.toContain("SyntaxError");
      expect(run.stdout).not.toContain("Built");
    },
  );
});
