import path from "node:path";
import type { RequestSpec } from "autocannon";
import { SITE_URL } from "./api-data.ts";
import { httpGet, measure } from "./api-load.ts";
import { containerNodeArgs, startServer } from "./api-process.ts";
import { newQueryPaths } from "./api-queries.ts";
import { dayBefore, searchPaths } from "./shared-filters.ts";

const work = path.resolve(".cache/bench");
const dist = path.join(work, "api-dist-10000");
const env = { PORT: "0", HOST: "127.0.0.1", DIST_DIR: dist, SITE_URL, LOG_LEVEL: "info", READ_RATE_LIMIT_PER_MINUTE: "0", SERVE_STATIC: "false", STATE_DIR: path.join(work, "api-state") };
const body = path.join(work, "api-typical-search.json");
const servers = {
  bare: await startServer("bare", "scripts/bench/api-ceiling.ts", [body], {}),
  express: await startServer("express", "scripts/bench/api-express-floor.ts", [body], {}),
  old: await startServer("old", "/tmp/s14-old/sidecar/src/main.ts", [], env, 60_000, containerNodeArgs()),
  new: await startServer("new", "sidecar/src/main.ts", [], env, 60_000, containerNodeArgs()),
};
const first = await httpGet(`${servers.new.url}/api/reviews/search?limit=1`);
const newest = (JSON.parse(first.body.toString("utf8")) as { reviews: { date: string }[] }).reviews[0]?.date ?? "";
const sincePath = `/api/reviews/since/${dayBefore(newest, 30)}`;
const loads: Record<string, (url: string) => Promise<RequestSpec[]>> = {
  since304: async (url) => [{ path: sincePath, headers: { "If-None-Match": String((await httpGet(`${url}${sincePath}`)).headers.etag) } }],
  fixed: async () => searchPaths(newest).map((p) => ({ path: p })),
  new: async () => {
    const paths = newQueryPaths(dist, 200_000, Math.floor(Math.random() * 1e9));
    let next = 0;
    return [{ setupRequest: (r: RequestSpec) => ({ ...r, path: paths[next++ % paths.length] as string }) }];
  },
};
const rows: Record<string, { rps: number[]; cpu: number[] }> = {};
const rounds = Number(process.argv[2] ?? 2);
for (let round = 0; round < rounds; round++) {
  for (const name of ["bare", "express"] as const) {
    const r = await measure(name, servers[name], [{ path: "/" }], { connections: 50, duration: 5, warmup: 1 });
    (rows[name] ??= { rps: [], cpu: [] }).rps.push(r.rps);
    rows[name].cpu.push((r.serverCpu / 100 / r.rps) * 1e6);
  }
  for (const load of Object.keys(loads)) {
    for (const name of ["old", "new"] as const) {
      const r = await measure(load, servers[name], await loads[load]!(servers[name].url), { connections: 50, duration: 5, warmup: 1 });
      const key = `${load} ${name}`;
      (rows[key] ??= { rps: [], cpu: [] }).rps.push(r.rps);
      rows[key].cpu.push((r.serverCpu / 100 / r.rps) * 1e6);
      if (Object.keys(r.statusCodes).length !== 1) console.log("STATUS", key, r.statusCodes);
    }
  }
}
for (const s of Object.values(servers)) await s.stop();
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const bare = mean(rows.bare!.rps);
for (const [k, v] of Object.entries(rows)) console.log(`${k.padEnd(16)} ${mean(v.rps).toFixed(0).padStart(7)} req/s  x bare ${(mean(v.rps) / bare).toFixed(2)}  CPU ${mean(v.cpu).toFixed(0)} µs/req  [${v.cpu.map((c) => c.toFixed(0)).join(" ")}]`);
