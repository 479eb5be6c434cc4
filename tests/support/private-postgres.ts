/**
 * A PostgreSQL cluster of one test file's own (initdb + pg_ctl in a temporary folder, on a free
 * loopback port), so a fault test can stop and start the server without disturbing other files
 * that use TEST_DATABASE_URL. As root the server runs as the `postgres` user (initdb refuses root).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

function serverBin(): string {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  if (!newest) throw new Error("no PostgreSQL server in /usr/lib/postgresql (apt-get install postgresql)");
  return path.join("/usr/lib/postgresql", newest, "bin");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = serverBin();
  const dir = mkdtempSync(path.join(tmpdir(), "hub-pg-"));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const uid = asRoot ? Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim()) : undefined;
  if (uid !== undefined) {
    chownSync(dir, uid, -1);
    chmodSync(dir, 0o700);
  }
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? "runuser" : path.join(bin, tool);
    const full = asRoot ? ["-u", "postgres", "--", path.join(bin, tool), ...args] : args;
    execFileSync(command, full, { stdio: "pipe" });
  };
  const data = path.join(dir, "data");
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o", options, "-w", "start"]),
    stop: () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    destroy: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
