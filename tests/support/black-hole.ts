/**
 * Attack helpers for the hub tests: a callback host that accepts connections and never answers (not
 * even the TLS handshake), and hub requests sent from a chosen loopback source address, so one test
 * process can play many clients (Linux routes all of 127.0.0.0/8 to the loopback interface).
 */

import { request } from "node:http";
import { createServer, type Socket } from "node:net";

export interface BlackHole {
  host: string;
  port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/** Listens on `host` (a loopback address) and holds every connection open without a byte in reply. */
export async function blackHole(host: string): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("black hole: no port");
  return {
    host,
    port: address.port,
    get connections() {
      return connections;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** POSTs a form to a hub from the loopback address `from` (node:http binds the socket to it). */
export function postFrom(
  hubBase: string,
  from: string,
  form: Record<string, string>,
): Promise<{ status: number; text: string; retryAfter: string | null }> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      `${hubBase}/api/websub/hub`,
      {
        method: "POST",
        localAddress: from,
        agent: false,
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          const retryAfter = res.headers["retry-after"];
          resolve({ status: res.statusCode ?? 0, text, retryAfter: retryAfter ?? null });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
