import { availableParallelism } from "node:os";
import { stopChild } from "./children.ts";
import { floorRequests, prepareFloorResults, startFloor } from "./mcp-floor.ts";
import {
  ABANDONED_SESSIONS,
  CONNECTIONS,
  cannon,
  type Measured,
  SECONDS,
  sessionCycles,
  WARMUP_SECONDS,
} from "./mcp-load.ts";
import {
  callBody,
  checkSameResults,
  INITIALIZE_BODY,
  MCP_HEADERS,
  MODERN_HEADERS,
  modernCallBody,
  openSession,
} from "./mcp-protocol.ts";
import { f, type McpMeasurements, row } from "./mcp-report.ts";
import { cpuSeconds, loadAverage, procStatus, SIZE, type Sidecar } from "./mcp-sidecar.ts";
import { filterMix, queryString } from "./shared-filters.ts";

/**
 * bench:mcp's measured runs against one running sidecar, each row printed as soon as it is
 * measured: (1) the HTTP search, (2) the same searches as 2026-07-28 tool calls (no session) and
 * (2b) as 2025 tool calls on one session, (2c, 2d) the SDK's own floor for such calls (the SDK
 * alone in its own process, its tools doing no work), (3) whole 2025 session cycles, (4) abandoned
 * sessions, with the memory readings around them.
 */
export async function runPhases(sidecar: Sidecar): Promise<McpMeasurements & { failures: number }> {
  const base = sidecar.url;
  const rssAtStart = procStatus(sidecar.pid, "VmRSS");
  const withCpu = async <T extends Measured>(run: () => Promise<T>, pid = sidecar.pid): Promise<T> => {
    const before = cpuSeconds(pid);
    const measured = await run();
    const cpuMs = ((cpuSeconds(pid) - before) * 1000) / Math.max(1, measured.count);
    return { ...measured, cpuMs, rss: procStatus(pid, "VmRSS") };
  };
  const newestPage = (await (await fetch(`${base}/api/reviews/search?limit=1`)).json()) as {
    total: number;
    reviews: { date: string }[];
  };
  const newest = newestPage.reviews[0]?.date;
  if (!newest || newestPage.total !== SIZE) throw new Error(`expected ${SIZE} reviews, got ${newestPage.total}`);
  const mix = filterMix(newest);
  const session = await openSession(base);
  await checkSameResults(base, session, mix);

  const httpRequests = mix.map((args) => ({ method: "GET", path: `/api/reviews/search?${queryString(args)}` }));
  const mcpHeaders = { ...MCP_HEADERS, "Mcp-Session-Id": session };
  const toolRequests = mix.map((args, i) => ({
    method: "POST",
    path: "/mcp",
    headers: MODERN_HEADERS,
    body: modernCallBody(args, i),
  }));
  const sessionToolRequests = mix.map((args, i) => ({
    method: "POST",
    path: "/mcp",
    headers: mcpHeaders,
    body: callBody(args, i),
  }));

  console.log(
    `bench:mcp: ${SIZE} reviews, sidecar pid ${sidecar.pid} (LOG_LEVEL=info, drained), ${CONNECTIONS} connections, ` +
      `${SECONDS} s per run after ${WARMUP_SECONDS} s warm-up, ${mix.length} filters, Node ${process.version}, ` +
      `${availableParallelism()} CPUs, load average ${loadAverage()}`,
  );
  // Warm-up: both paths, so neither run pays for JIT compilation of the shared search code.
  await cannon({ url: base, connections: CONNECTIONS, duration: WARMUP_SECONDS, requests: httpRequests });
  await cannon({ url: base, connections: CONNECTIONS, duration: WARMUP_SECONDS, requests: toolRequests });
  await cannon({ url: base, connections: CONNECTIONS, duration: WARMUP_SECONDS, requests: sessionToolRequests });

  const http = await withCpu(() =>
    cannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests: httpRequests }),
  );
  console.log(row("(1) GET /api/reviews/search", http, "req/s"));
  const tool = await withCpu(() =>
    cannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests: toolRequests }),
  );
  console.log(row("(2) tools/call search_reviews, 2026-07-28", tool, "req/s"));
  const sessionTool = await withCpu(() =>
    cannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests: sessionToolRequests }),
  );
  console.log(row("(2b) the same, 2025-11-25 in one session", sessionTool, "req/s"));

  const floor = await startFloor(await prepareFloorResults(base, mix));
  let floorPing: Measured;
  let floorReplay: Measured;
  try {
    const floorLoad = floorRequests(mix.length);
    const onFloor = (requests: typeof floorLoad.ping) => () =>
      cannon({ url: floor.url, connections: CONNECTIONS, duration: SECONDS, requests });
    await cannon({ url: floor.url, connections: CONNECTIONS, duration: WARMUP_SECONDS, requests: floorLoad.replay });
    floorPing = await withCpu(onFloor(floorLoad.ping), floor.pid);
    console.log(row("(2c) SDK floor: tools/call of a no-op tool", floorPing, "req/s"));
    floorReplay = await withCpu(onFloor(floorLoad.replay), floor.pid);
    console.log(row("(2d) SDK floor: the results of (2), prepared", floorReplay, "req/s"));
  } finally {
    await stopChild(floor.child);
  }
  const cycles = await withCpu(() => sessionCycles(base, mix, SECONDS));
  console.log(row("(3) initialize + tools/call + DELETE", cycles, "cycles/s"));
  console.log(`    the client's own CPU: ${f(cycles.clientCpuMs, 2, 5)} ms per cycle`);

  const abandon = () =>
    withCpu(() =>
      cannon({
        url: base,
        connections: CONNECTIONS,
        amount: ABANDONED_SESSIONS,
        requests: [{ method: "POST", path: "/mcp", headers: MCP_HEADERS, body: INITIALIZE_BODY }],
      }),
    );
  const heapBefore = await sidecar.retainedHeap();
  const rssBefore = procStatus(sidecar.pid, "VmRSS");
  const abandoned = await abandon();
  const rssAfter = procStatus(sidecar.pid, "VmRSS");
  const heapAfter = await sidecar.retainedHeap();
  console.log(row(`(4) ${ABANDONED_SESSIONS} initialize, never DELETEd`, abandoned, "req/s"));
  // A second batch tells retained memory (it would grow again) from heap head-room (it does not).
  const again = await abandon();
  const rssAfterAgain = procStatus(sidecar.pid, "VmRSS");
  console.log(row(`    another ${ABANDONED_SESSIONS}`, again, "req/s"));

  const failures =
    http.errors +
    tool.errors +
    sessionTool.errors +
    floorPing.errors +
    floorReplay.errors +
    cycles.errors +
    abandoned.errors +
    again.errors;
  return {
    http,
    tool,
    sessionTool,
    floorPing,
    floorReplay,
    cycles,
    rssAtStart,
    rssBefore,
    rssAfter,
    rssAfterAgain,
    heapBefore,
    heapAfter,
    failures,
  };
}
