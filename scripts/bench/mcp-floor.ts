import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { MODERN_HEADERS, modernCallBody, modernHeaders, modernToolCallBody } from "./mcp-protocol.ts";

/** bench:mcp's SDK floor server (mcp-floor-server.ts) in a child process, and the requests it is loaded with. */

export interface Floor {
  child: ChildProcess;
  pid: number;
  url: string;
}

/** The sidecar's 2026-07-28 search_reviews results for the mix, written where the floor server reads them. */
export async function prepareFloorResults(base: string, mix: Record<string, string | number>[]): Promise<string> {
  const results: unknown[] = [];
  for (const [i, args] of mix.entries()) {
    const response = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: MODERN_HEADERS,
      body: modernCallBody(args, i),
    });
    const rpc = (await response.json()) as { result?: unknown };
    if (!rpc.result) throw new Error(`search_reviews ${JSON.stringify(args)}: no result`);
    results.push(rpc.result);
  }
  const file = path.resolve(".cache/bench/mcp-floor-results.json");
  writeFileSync(file, JSON.stringify(results));
  return file;
}

export function startFloor(resultsFile: string): Promise<Floor> {
  const script = path.resolve("scripts/bench/mcp-floor-server.ts");
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, FLOOR_RESULTS: resultsFile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the SDK floor server did not listen within 30 s\n${stderr}`));
    }, 30_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the SDK floor server exited with ${code}\n${stderr}`));
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString("utf8"))?.[1];
      if (!url || child.pid === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({ child, pid: child.pid, url });
    });
  });
}

/** 2026-07-28 tools/call requests of the floor's `ping`, and of `replay` for each result of the mix. */
export function floorRequests(count: number) {
  return {
    ping: [{ method: "POST", path: "/mcp", headers: modernHeaders("ping"), body: modernToolCallBody("ping", {}) }],
    replay: Array.from({ length: count }, (_, position) => ({
      method: "POST",
      path: "/mcp",
      headers: modernHeaders("replay"),
      body: modernToolCallBody("replay", { position }, position),
    })),
  };
}
