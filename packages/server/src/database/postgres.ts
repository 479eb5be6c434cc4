import pg from "pg";
import type { Logger } from "pino";
import { StoreUnavailableError } from "../websub-hub/store/hub-store.ts";
import { POSTGRES_MIGRATIONS } from "./migrations.ts";

type Params = readonly unknown[];
export type Rows = Record<string, unknown>[];

/** Key of the advisory lock under which migrations run (any constant unique to this application). */
const MIGRATION_LOCK = 7_311_402_519;
const RECONNECT_MS = 1000;

/** Errors that mean "the database is not reachable now" rather than "this statement is wrong". */
function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = String((error as Error & { code?: unknown }).code ?? "");
  // SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, restart).
  if (/^08|^57P/.test(code) || /^E(CONN|HOST|NET|PIPE|TIMEDOUT|AI_AGAIN)/.test(code)) return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(
    error.message,
  );
}

/**
 * The sidecar's connection to PostgreSQL: a pool for queries, one dedicated connection that LISTENs
 * (reconnected with its channels when it drops; listeners are told so they can catch up on what they
 * missed), and whether the database is reachable now (for /readyz and the hub's 503).
 */
export class Postgres {
  readonly #pool: pg.Pool;
  readonly #url: string;
  readonly #logger: Logger;
  readonly #channels = new Map<string, ((payload: string) => void)[]>();
  readonly #reconnected: (() => void)[] = [];
  #listener: pg.Client | undefined;
  #problem: string | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  private constructor(url: string, logger: Logger) {
    this.#url = url;
    this.#logger = logger;
    // A request waits at most 5 s for a connection (a burst of subscribes queues here); a server
    // that refuses connections fails at once.
    this.#pool = new pg.Pool({ connectionString: url, max: 20, connectionTimeoutMillis: 5000 });
    // An idle pooled connection dropped by the server must not crash the process.
    this.#pool.on("error", (error) => this.#down(error));
  }

  /** Connects, applies the migrations and starts listening; throws if the database cannot be reached. */
  static async connect(url: string, logger: Logger): Promise<Postgres> {
    const db = new Postgres(url, logger);
    try {
      await db.#migrate();
      await db.#listen();
    } catch (error) {
      await db.close();
      throw error;
    }
    return db;
  }

  async #migrate(): Promise<void> {
    const { client, release } = await this.#checkOut();
    try {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await client.query("CREATE TABLE IF NOT EXISTS sidecar_schema_migrations (version INTEGER PRIMARY KEY)");
      const { rows } = await client.query("SELECT COALESCE(MAX(version), 0) AS version FROM sidecar_schema_migrations");
      const current = Number(rows[0]?.version ?? 0);
      for (const [index, sql] of POSTGRES_MIGRATIONS.entries()) {
        if (index + 1 <= current) continue;
        await client.query("BEGIN");
        try {
          await client.query(sql);
          await client.query("INSERT INTO sidecar_schema_migrations (version) VALUES ($1)", [index + 1]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
      release();
    }
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: 2000 });
    client.on("error", (error) => {
      if (this.#listener === client) this.#listener = undefined;
      void client.end().catch(() => undefined);
      this.#down(error);
    });
    client.on("end", () => {
      if (this.#listener === client) this.#listener = undefined;
      if (!this.#closed) {
        this.#problem ??= "the database connection ended";
        this.#scheduleReconnect();
      }
    });
    client.on("notification", (message) => {
      for (const handler of this.#channels.get(message.channel) ?? []) handler(message.payload ?? "");
    });
    await client.connect();
    for (const channel of this.#channels.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    this.#listener = client;
    this.#problem = undefined;
  }

  #down(error: Error): void {
    if (this.#closed) return;
    const code = (error as Error & { code?: unknown }).code;
    if (!this.#problem) this.#logger.warn({ reason: error.message, code }, "database unreachable");
    this.#problem = `database unreachable: ${error.message}`;
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    // A live listening connection means the server is up: a failed query clears on the next success.
    if (this.#closed || this.#retry || this.#listener) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#listen().then(
        () => {
          this.#logger.info("database reachable again");
          for (const handler of this.#reconnected) handler();
        },
        () => this.#scheduleReconnect(),
      );
    }, RECONNECT_MS);
    this.#retry.unref();
  }

  /** Undefined while the database answers, otherwise why not. */
  problem(): string | undefined {
    return this.#problem;
  }

  /** Calls `handler` with each NOTIFY payload on `channel` (from any replica, this one included). */
  async listen(channel: string, handler: (payload: string) => void): Promise<void> {
    const handlers = this.#channels.get(channel);
    if (handlers) {
      handlers.push(handler);
      return;
    }
    this.#channels.set(channel, [handler]);
    await this.#listener?.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
  }

  /** Calls `handler` after the listening connection came back (notifications may have been missed). */
  onReconnect(handler: () => void): void {
    this.#reconnected.push(handler);
  }

  #fail(error: unknown): never {
    if (isUnavailable(error)) {
      this.#down(error as Error);
      throw new StoreUnavailableError("the database is unreachable", { cause: error });
    }
    throw error;
  }

  async query(sql: string, params: Params = []): Promise<Rows> {
    try {
      const { rows } = await this.#pool.query(sql, params as unknown[]);
      if (this.#listener) this.#problem = undefined;
      return rows;
    } catch (error) {
      this.#fail(error);
    }
  }

  /**
   * A pooled connection for several statements. While it is checked out the pool does not watch it,
   * so a server that goes away in between must not raise an unhandled 'error'.
   */
  async #checkOut(): Promise<{ client: pg.PoolClient; release(broken?: Error): void }> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      this.#fail(error);
    }
    const onError = (error: Error) => this.#down(error);
    client.on("error", onError);
    return {
      client,
      release: (broken) => {
        client.off("error", onError);
        client.release(broken);
      },
    };
  }

  /** Runs `work` in one transaction on one connection; rolls back if it throws. */
  async transaction<T>(work: (query: (sql: string, params?: Params) => Promise<Rows>) => Promise<T>): Promise<T> {
    const { client, release } = await this.#checkOut();
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      const result = await work(async (sql, params = []) => (await client.query(sql, params as unknown[])).rows);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      if (isUnavailable(error)) broken = error as Error;
      else await client.query("ROLLBACK").catch(() => undefined);
      this.#fail(error);
    } finally {
      // A connection that failed is discarded rather than handed to the next query.
      release(broken);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    await this.#listener?.end().catch(() => undefined);
    await this.#pool.end().catch(() => undefined);
  }
}
