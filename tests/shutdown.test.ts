/**
 * Graceful shutdown of the real sidecar process (main.ts): on SIGTERM /readyz turns 503, the
 * listener closes (new connections are refused), a request in flight still gets its full answer,
 * the process exits 0, and the hub's SQLite file is closed cleanly (no -wal left to recover, data
 * intact when reopened).
 */
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { type ClientRequest, request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, inject, it } from "vitest";
import { initializeBody } from "./support/mcp-rpc.ts";
import { type SidecarProcess, startSidecarProcess, stopSidecars } from "./support/sidecar-process.ts";

const sidecars = new Set<SidecarProcess>();
const work = mkdtempSync(path.join(tmpdir(), "shutdown-"));
afterAll(async () => {
  await stopSidecars(sidecars);
  rmSync(work, { recursive: true, force: true });
});

/** Resolves once a TCP connection to the port is refused; rejects if it keeps being accepted. */
function refused(port: number, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        if (Date.now() > end) reject(new Error("connections are still accepted"));
        else setTimeout(attempt, 20);
      });
      socket.once("error", (error: NodeJS.ErrnoException) =>
        error.code === "ECONNREFUSED" ? resolve() : reject(error),
      );
    };
    attempt();
  });
}

/** A POST /mcp whose body is sent in two parts; the response resolves once the rest is sent. */
function slowInitialize(base: string): {
  req: ClientRequest;
  rest: string;
  answer: Promise<{ status: number; text: string }>;
} {
  const body = initializeBody("2025-06-18");
  const half = Math.floor(body.length / 2);
  let req!: ClientRequest;
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req = request(
      `${base}/mcp`,
      {
        method: "POST",
        agent: false,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "Content-Length": String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
  });
  req.write(body.slice(0, half));
  return { req, rest: body.slice(half), answer };
}

describe("SIGTERM", () => {
  it("stops taking traffic, finishes the request in flight, closes the database and exits 0", async () => {
    const dist = path.join(work, "dist");
    cpSync(inject("sampleDist"), dist, { recursive: true });
    const state = path.join(work, "state");
    const sidecar = await startSidecarProcess({
      env: { DIST_DIR: dist, STATE_DIR: state, SITE_URL: "https://reviews.test", SHUTDOWN_DELAY_MS: "500" },
      registry: sidecars,
    });
    const port = Number(new URL(sidecar.base).port);
    expect((await fetch(`${sidecar.base}/readyz`)).status).toBe(200);

    const slow = slowInitialize(sidecar.base);
    // The request is under way: its headers and half its body have reached the server.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exited = sidecar.stop(15_000);

    let readyz: Response | undefined;
    for (let tries = 0; tries < 50 && readyz?.status !== 503; tries++) {
      readyz = await fetch(`${sidecar.base}/readyz`, { headers: { Connection: "close" } });
      if (readyz.status !== 503) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(readyz?.status).toBe(503);
    expect(await readyz?.json()).toEqual({ status: "not_ready", reason: "shutting down", database: "sqlite: ok" });

    await refused(port);
    expect(sidecar.child.exitCode).toBeNull();
    slow.req.end(slow.rest);
    const answer = await slow.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18" } });

    expect(await exited).toBe(0);
    const file = path.join(state, "hub.sqlite");
    const wal = `${file}-wal`;
    expect(!existsSync(wal) || statSync(wal).size === 0, "a -wal file left to recover").toBe(true);
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      // The hub recorded each topic's content hash at start-up.
      expect(db.prepare("SELECT COUNT(*) AS n FROM topics").get()).toEqual({ n: 3 });
    } finally {
      db.close();
    }
  });
});
