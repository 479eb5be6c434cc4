/**
 * The PostgreSQL server of the tests: TEST_DATABASE_URL (.ci/run starts a throwaway cluster and sets
 * it). Each user of it gets its own schema, so test files running in parallel never see each other's
 * rows. Without the URL the PostgreSQL tests are skipped, except under CI, where that is an error.
 */
import { createHash } from "node:crypto";
import pg from "pg";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

if (!TEST_DATABASE_URL && process.env.CI === "true") {
  throw new Error("CI=true but TEST_DATABASE_URL is not set: the PostgreSQL tests cannot run (see .ci/run).");
}

/** Whether tests that need PostgreSQL run here. */
export const hasDatabase = TEST_DATABASE_URL !== undefined;

/** A schema name derived from `key` (the same key gives the same schema: a "restart"). */
export function schemaFor(key: string): string {
  return `t_${createHash("sha256").update(key).digest("hex").slice(0, 20)}`;
}

/** Creates the schema if missing; returns a connection URL whose sessions use it. */
export async function databaseUrlFor(key: string): Promise<string> {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const schema = schemaFor(key);
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    await client.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}

/** Drops a schema made by databaseUrlFor. */
export async function dropSchema(key: string): Promise<void> {
  if (!TEST_DATABASE_URL) return;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schemaFor(key)} CASCADE`);
  } finally {
    await client.end();
  }
}
