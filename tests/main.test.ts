import { spawn } from "node:child_process";
import { PUBLISHED_DOCUMENTS, SERVER_ENDPOINTS } from "@riverbend/shared/registry/documents.ts";
import { describe, expect, inject, it } from "vitest";
import { ROOT, runScript } from "./support/run-build.ts";

describe("packages/server/src/main.ts", () => {
  it("stops at start-up with a message naming a bad variable", async () => {
    const run = await runScript("packages/server/src/main.ts", [], { PORT: "eighty", DIST_DIR: inject("sampleDist") });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PORT: must be a port number from 0 to 65535, got "eighty"');
  });

  it("stops when there is no build to serve, saying what to run", async () => {
    const run = await runScript("packages/server/src/main.ts", [], { PORT: "0", DIST_DIR: "/nonexistent/dist" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Run `npm run build` first.");
  });

  it("listens on an OS-assigned port, prints what it serves, serves, and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "packages/server/src/main.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: "0",
        LOG_LEVEL: "silent",
        DIST_DIR: inject("sampleDist"),
        SITE_URL: "https://reviews.test",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        out += chunk;
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match?.[1] && out.includes("/openapi.json")) resolve(match[1]);
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    // The banner lists every published document and server endpoint of the registry.
    for (const row of [...PUBLISHED_DOCUMENTS, ...SERVER_ENDPOINTS]) expect(out).toContain(`${row.path} `);
    const response = await fetch(`${base}/api/feed.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/feed+json; charset=utf-8");
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
