import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { RequestSpec } from "autocannon";
import { SITE_URL } from "./api-data.ts";
import { httpGet, measure } from "./api-load.ts";
import { containerNodeArgs, startServer } from "./api-process.ts";
import { newQueryPaths } from "./api-queries.ts";
import { dayBefore, searchPaths } from "./shared-filters.ts";

/**
 * `npm run bench:api:profile -- --load since304|fixed|new`: the sidecar on the 10k data set of bench:api
 * (run it first) under one load with `node --cpu-prof`, then the CPU per request by module and by
 * function (self time), from the profile.
 */
const { values } = parseArgs({
  options: {
    load: { type: "string", default: "since304" },
    duration: { type: "string", default: "8" },
    top: { type: "string", default: "40" },
  },
});
const work = path.resolve(".cache/bench");
const dist = path.join(work, "api-dist-10000");
const profDir = path.join(work, `profile-${values.load}`);
const floors: Record<string, string> = { bare: "api-ceiling.ts", express: "api-express-floor.ts" };
const floor = floors[values.load as string];
const profiling = [...containerNodeArgs(), "--cpu-prof", `--cpu-prof-dir=${profDir}`];
const body = path.join(work, "api-typical-search.json");
const sidecar = floor
  ? await startServer(values.load as string, `scripts/bench/${floor}`, [body], {}, 60_000, profiling)
  : await startServer(
      "sidecar",
      "packages/server/src/main.ts",
      [],
      {
        PORT: "0",
        HOST: "127.0.0.1",
        DIST_DIR: dist,
        SITE_URL,
        LOG_LEVEL: "info",
        READ_RATE_LIMIT_PER_MINUTE: "0",
        SERVE_STATIC: "false",
        STATE_DIR: path.join(work, "api-state"),
      },
      60_000,
      profiling,
    );
const first = floor ? undefined : await httpGet(`${sidecar.url}/api/reviews/search?limit=1`);
const newest = first
  ? ((JSON.parse(first.body.toString("utf8")) as { reviews: { date: string }[] }).reviews[0]?.date ?? "")
  : "";
let requests: RequestSpec[];
if (floor) requests = [{ path: "/" }];
else if (values.load === "fixed") requests = searchPaths(newest).map((p) => ({ path: p }));
else if (values.load === "new") {
  const paths = newQueryPaths(dist, 400_000, 10_000);
  let next = 0;
  requests = [{ setupRequest: (r: RequestSpec) => ({ ...r, path: paths[next++ % paths.length] as string }) }];
} else {
  const sincePath = `/api/reviews/since/${dayBefore(newest, 30)}`;
  const etag = String((await httpGet(`${sidecar.url}${sincePath}`)).headers.etag);
  requests = [{ path: sincePath, headers: { "If-None-Match": etag } }];
}
const result = await measure(values.load, sidecar, requests, {
  connections: 50,
  duration: Number(values.duration),
  warmup: 2,
});
await sidecar.stop();
console.log(
  `${values.load}: ${result.rps.toFixed(0)} req/s, ${result.total} responses, ${JSON.stringify(result.statusCodes)}`,
);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = readdirSync(profDir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .sort()
  .at(-1) as string;
const profile = JSON.parse(readFileSync(path.join(profDir, file), "utf8")) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const totalUs = [...self.values()].reduce((a, b) => a + b, 0);
const requestsSeen = result.total * (1 + 2 / Number(values.duration)); // warm-up included
const perRequest = (us: number) => (us / requestsSeen).toFixed(2);
const moduleOf = (url: string) => {
  if (url === "") return "(native)";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1] as string;
  if (url.startsWith("node:")) return url;
  return url.replace(/^file:\/\/.*?\/(sidecar|src)\//, "$1/");
};
const key = (node: Node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return url === "" && functionName.startsWith("(")
    ? functionName
    : `${functionName || "(anonymous)"} ${moduleOf(url)}:${lineNumber + 1}`;
};
// Inclusive time per function: a node's own time plus its descendants', counted once per stack.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const inclusive = new Map<string, number>();
const walk = (node: Node, onStack: Set<string>): number => {
  let us = self.get(node.id) ?? 0;
  const k = key(node);
  const fresh = !onStack.has(k);
  if (fresh) onStack.add(k);
  for (const child of node.children ?? []) us += walk(byId.get(child) as Node, onStack);
  if (fresh) {
    onStack.delete(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
  return us;
};
walk(profile.nodes[0] as Node, new Set());
const idle = inclusive.get("(idle)") ?? 0;
const byModule = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const node of profile.nodes) {
  const us = self.get(node.id) ?? 0;
  const { functionName, url } = node.callFrame;
  const mod = url === "" && functionName.startsWith("(") ? functionName : moduleOf(url);
  byModule.set(mod, (byModule.get(mod) ?? 0) + us);
  const fn = key(node);
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
}
console.log(
  `profile ${(totalUs / 1e6).toFixed(1)} s sampled (${(idle / 1e6).toFixed(1)} s idle) over ~${Math.round(requestsSeen)} requests: ${perRequest(totalUs - idle)} µs busy per request`,
);
console.log("\nself time by module (µs/request):");
for (const [m, us] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, 40))
  console.log(`${perRequest(us).padStart(8)}  ${m}`);
console.log("\nself time by function (µs/request):");
for (const [f, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
  console.log(`${perRequest(us).padStart(8)}  ${f}`);
console.log("\ninclusive time by function (µs/request):");
for (const [f, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top) * 2))
  console.log(`${perRequest(us).padStart(8)}  ${f}`);
