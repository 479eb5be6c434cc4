import type { Logger } from "pino";
import { RevokedIds } from "../mcp/revoked-ids.ts";
import type { SessionRevocations } from "../mcp/session-tokens.ts";
import type { Postgres } from "./postgres.ts";

const CHANNEL = "mcp_revoked";

/**
 * Terminated MCP session ids in PostgreSQL, mirrored in memory: loaded at start-up and after a
 * reconnect, kept in sync through LISTEN/NOTIFY, so every replica refuses a session any of them
 * terminated, within the notification's latency, and after restarts until the session would have
 * expired. An id recorded while the database is away is written once it is back.
 */
export class PostgresSessionRevocations implements SessionRevocations {
  readonly #db: Postgres;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #ids = new RevokedIds(100_000);
  readonly #unsaved = new Map<string, number>();

  private constructor(db: Postgres, logger: Logger, now: () => number) {
    this.#db = db;
    this.#logger = logger;
    this.#now = now;
  }

  static async load(db: Postgres, logger: Logger, now: () => number = Date.now): Promise<PostgresSessionRevocations> {
    const revocations = new PostgresSessionRevocations(db, logger, now);
    await db.listen(CHANNEL, (payload) => {
      const [expires, id] = [Number(payload.slice(0, payload.indexOf(" "))), payload.slice(payload.indexOf(" ") + 1)];
      revocations.#remember(id, expires);
    });
    db.onReconnect(() => void revocations.#catchUp());
    await revocations.#catchUp();
    return revocations;
  }

  #remember(id: string, expiresAt: number): void {
    this.#ids.add(id, expiresAt, this.#now());
  }

  async #catchUp(): Promise<void> {
    try {
      for (const [id, expiresAt] of [...this.#unsaved]) {
        await this.#save(id, expiresAt);
        this.#unsaved.delete(id);
      }
      await this.#db.query("DELETE FROM mcp_revoked_sessions WHERE expires_at <= $1", [this.#now()]);
      const rows = await this.#db.query("SELECT id, expires_at FROM mcp_revoked_sessions");
      for (const row of rows) this.#remember(String(row.id), Number(row.expires_at));
    } catch (error) {
      this.#logger.warn({ err: error }, "MCP session revocations not loaded");
    }
  }

  async #save(id: string, expiresAt: number): Promise<void> {
    await this.#db.query(
      `WITH saved AS (
         INSERT INTO mcp_revoked_sessions (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING)
       SELECT pg_notify($3, $2::bigint::text || ' ' || $1)`,
      [id, expiresAt, CHANNEL],
    );
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  add(id: string, expiresAt: number): void {
    this.#remember(id, expiresAt);
    this.#save(id, expiresAt).catch((error) => {
      this.#unsaved.set(id, expiresAt);
      this.#logger.warn({ err: error }, "MCP session revocation saved later: the database is away");
    });
  }
}
