import { defineConfig } from "vitest/config";

// The hub's test files run a second time against PostgreSQL when a test server is configured
// (.ci/run starts one and sets TEST_DATABASE_URL; under CI its absence is an error).
const withPostgres = process.env.TEST_DATABASE_URL !== undefined;
if (!withPostgres && process.env.CI === "true") {
  throw new Error("CI=true but TEST_DATABASE_URL is not set: the hub's PostgreSQL tests cannot run (see .ci/run).");
}
const HUB_FILES = ["tests/hub.test.ts", "tests/hub-*.test.ts"];

export default defineConfig({
  test: {
    environment: "node",
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Builds run as child processes and each takes a core: more workers would only contend.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "default", include: ["tests/**/*.test.ts"] } },
      ...(withPostgres
        ? [
            {
              extends: true,
              test: {
                name: "hub-postgres",
                include: HUB_FILES,
                // Process-level SQLite durability is SQLite's own; the replica tests are PostgreSQL's.
                exclude: ["tests/hub-durability.test.ts", "tests/hub-replicas*.test.ts"],
                env: { HUB_TEST_STORE: "postgres" },
              },
            },
          ]
        : []),
    ],
  },
});
