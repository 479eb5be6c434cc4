import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";

/**
 * Starts an app (or an already built server) on an OS-assigned loopback port; returns its base URL
 * and a stop function.
 */
export async function listen(target: Express | Server): Promise<{ base: string; close: () => Promise<void> }> {
  const server = typeof target === "function" ? createServer(target) : target;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A response exactly as it came: status, raw headers (lower-case names) and body bytes. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * One request on a fresh connection with exactly these headers (fetch would add its own). With
 * `Transfer-Encoding: chunked` the body goes out in two chunks, so it really is chunked.
 */
export function sendRaw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (headers["Transfer-Encoding"] === "chunked" && body !== undefined) {
      const text = body.toString();
      req.write(text.slice(0, 10));
      req.end(text.slice(10));
    } else {
      req.end(body);
    }
  });
}
