/**
 * The Dockerfile, linted without a container engine: dockerfile-utils finds no problem, and the
 * hadolint rules that apply hold, along with what the image must be (a pinned Node, an unprivileged
 * user, production dependencies only, configured for the container). The recipe itself is replayed
 * in container.test.ts.
 */
import { validate } from "dockerfile-utils";
import { describe, expect, it } from "vitest";
import {
  all,
  assignments,
  DOCKERFILE,
  execForm,
  healthcheckOf,
  RUNTIME,
  STAGES,
  type Stage,
  seconds,
} from "./support/container-dockerfile.ts";

describe("Dockerfile (lint)", () => {
  const envOf = (stage: Stage) =>
    Object.fromEntries(all(stage, "ENV").flatMap((i) => assignments(i.args, { SITE_URL: "$SITE_URL" })));

  it("has no problem dockerfile-utils finds", () => {
    expect(validate(DOCKERFILE)).toEqual([]);
  });

  it("is multi-stage on a pinned Node major (the one the tests run on), never latest", () => {
    expect(STAGES.length).toBeGreaterThanOrEqual(2);
    const major = process.versions.node.split(".")[0];
    for (const stage of STAGES) {
      expect(stage.image).toMatch(/^node:\d+-[a-z0-9.-]*slim$/); // DL3006: tagged; slim
      expect(stage.image).not.toMatch(/:latest$|^[^:]+$/); // DL3007
      expect(stage.image).toBe(`node:${major}-bookworm-slim`);
    }
  });

  it("keeps the hadolint rules that apply: exec form, no ADD, absolute WORKDIR, no cd or pipes in RUN", () => {
    for (const stage of STAGES) {
      expect(all(stage, "ADD")).toEqual([]); // DL3020
      expect(all(stage, "MAINTAINER")).toEqual([]); // DL4000
      for (const w of all(stage, "WORKDIR")) expect(w.args).toMatch(/^\//); // DL3000
      for (const r of all(stage, "RUN")) {
        expect(r.args).not.toMatch(/(^|&&|;)\s*cd\s/); // DL3003
        expect(r.args).not.toMatch(/[^|]\|[^|]/); // DL4006: no pipe whose failure would be hidden
        expect(r.args).not.toMatch(/\bsudo\b|apt-get upgrade/); // DL3004, DL3005
        expect(r.args).not.toMatch(/\bnpm install\b/); // npm ci: exactly the committed lockfile
      }
    }
    expect(all(RUNTIME, "CMD")).toHaveLength(1); // DL4003
    expect(execForm(all(RUNTIME, "CMD")[0]?.args ?? "")).toEqual([
      "node",
      "--max-semi-space-size=16",
      "packages/server/src/main.ts",
    ]); // DL3025
    expect(all(RUNTIME, "ENTRYPOINT")).toEqual([]);
  });

  it("runs as the image's unprivileged node user, set before CMD", () => {
    const users = all(RUNTIME, "USER");
    expect(users.at(-1)?.args).toBe("node"); // DL3002: the last USER is not root
    expect(users.at(-1)?.line ?? Number.POSITIVE_INFINITY).toBeLessThan(all(RUNTIME, "CMD")[0]?.line ?? 0);
    // The only chown hands the state volume to that user.
    const chowns = RUNTIME.instructions.flatMap((i) => [...i.args.matchAll(/chown\s+(\S+)\s+(\S+)/g)]);
    expect(chowns.map((m) => [m[1], m[2]])).toEqual([["node:node", envOf(RUNTIME).STATE_DIR]]);
  });

  it("installs production dependencies only in the runtime stage, all of them in the build stage", () => {
    const installs = (stage: Stage) => all(stage, "RUN").filter((r) => /\bnpm (install|ci)\b/.test(r.args));
    expect(installs(RUNTIME).map((r) => r.args)).toEqual([expect.stringMatching(/^npm ci --omit=dev\b/)]);
    for (const stage of STAGES.slice(0, -1)) for (const r of installs(stage)) expect(r.args).not.toContain("--omit");
    // The runtime stage takes the bundle from the build stage and nothing else from it.
    const fromBuild = all(RUNTIME, "COPY").filter((c) => c.args.includes("--from="));
    expect(fromBuild.map((c) => c.args)).toEqual([`--from=${STAGES[0]?.name} /app/dist ./dist`]);
  });

  it("is configured for the container: all interfaces, no static files, state on a volume, health check", () => {
    const env = envOf(RUNTIME);
    expect(env).toMatchObject({ NODE_ENV: "production", HOST: "0.0.0.0", SERVE_STATIC: "false" });
    expect(env.SITE_URL).toBe("$SITE_URL"); // the same build argument the bundle was built with
    const buildArgs = STAGES.map((s) => all(s, "ARG").find((a) => a.args.startsWith("SITE_URL="))?.args);
    expect(new Set(buildArgs).size).toBe(1); // one default, repeated in both stages
    expect(buildArgs[0]).toMatch(/^SITE_URL=https?:\/\/\S+$/);
    expect(all(RUNTIME, "VOLUME").flatMap((v) => execForm(v.args))).toEqual([env.STATE_DIR]);
    expect(all(RUNTIME, "EXPOSE").map((e) => e.args)).toEqual([env.PORT]);
    expect(all(RUNTIME, "STOPSIGNAL").map((s) => s.args)).toEqual(["SIGTERM"]);
    const health = healthcheckOf(RUNTIME);
    expect(health.argv[0]).toBe("node"); // no curl or wget in slim images
    expect(health.argv.join(" ")).toMatch(/\/(healthz|readyz)/);
    expect(seconds(health.flags.timeout ?? "30s")).toBeLessThanOrEqual(10);
  });
});
