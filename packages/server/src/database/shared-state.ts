import type { Logger } from "pino";
import type { SessionRevocations } from "../mcp/session-tokens.ts";
import { Postgres } from "./postgres.ts";
import { PostgresSessionRevocations } from "./session-revocations.ts";

/** What replicas share through PostgreSQL; without DATABASE_URL nothing (SQLite, one process). */
export interface SharedState {
  db: Postgres | undefined;
  revocations: SessionRevocations | undefined;
  /** The database's state for /readyz, given the hub store's current problem. */
  describe(problem: string | undefined): string;
  close(): Promise<void>;
}

/** The database named by a connection URL, without its credentials (for messages). */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return "(unparsable URL)";
  }
}

export class SharedStateError extends Error {
  override name = "SharedStateError";
}

/** Connects to DATABASE_URL (migrating it) when set; a failure names the variable and the server. */
export async function connectSharedState(url: string | undefined, logger: Logger): Promise<SharedState> {
  if (!url) {
    return {
      db: undefined,
      revocations: undefined,
      describe: (problem) => (problem ? `sqlite: ${problem}` : "sqlite: ok"),
      close: async () => undefined,
    };
  }
  let db: Postgres;
  try {
    db = await Postgres.connect(url, logger);
  } catch (error) {
    throw new SharedStateError(
      `Cannot use DATABASE_URL (${describeUrl(url)}): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const revocations = await PostgresSessionRevocations.load(db, logger);
  return {
    db,
    revocations,
    describe: (problem) => (problem ? `postgresql: ${problem}` : "postgresql: ok"),
    close: () => db.close(),
  };
}
