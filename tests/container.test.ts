/**
 * The Dockerfile, proved without a container engine: its two stages are replayed instruction by
 * instruction in a temporary folder that stands for each image's filesystem root (the build context
 * is this repository, filtered by .dockerignore), and the sidecar is started with the image's CMD
 * and ENV and called on every route. The lint is in container-lint.test.ts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { all, execForm, healthcheckOf, RUNTIME, STAGES, seconds } from "./support/container-dockerfile.ts";
import { freePort, inRoot, type Replayed, replay, run } from "./support/container-replay.ts";
import { ROOT } from "./support/run-build.ts";

interface Manifest {
  name: string;
  dependencies: Record<string, string>;
}
const manifest = (dir: string) => JSON.parse(readFileSync(path.join(ROOT, dir, "package.json"), "utf8")) as Manifest;
const ROOT_PACKAGE = manifest(".");
const SERVER = manifest("packages/server");
const SHARED = manifest("packages/shared");
const WORKSPACE_NAMES = new Set([SERVER.name, SHARED.name]);
/** What the server package needs from the registry: its own dependencies and the shared package's. */
const SERVER_NEEDS = [...Object.keys(SERVER.dependencies), ...Object.keys(SHARED.dependencies)].filter(
  (name) => !WORKSPACE_NAMES.has(name),
);

describe("the image recipe, replayed in a temporary folder", () => {
  const temp = mkdtempSync(path.join(tmpdir(), "reviews-container-"));
  let runtime: Replayed;
  let env: Record<string, string>;
  let child: ChildProcess | undefined;
  let base = "";
  let output = "";
  let exited: Promise<number | null>;

  beforeAll(async () => {
    const built = new Map<string, string>();
    for (const [index, stage] of STAGES.entries()) {
      const root = path.join(temp, `stage-${index}`);
      const replayed = await replay(stage, root, built);
      if (stage.name) built.set(stage.name, root);
      if (stage === RUNTIME) runtime = replayed;
      // The build stage's node_modules (every dependency, ~450 MB) is not needed once dist/ is copied.
      else rmSync(path.join(root, "app", "node_modules"), { recursive: true, force: true });
    }
    // The container's environment is the image's ENV and nothing else, with two deviations:
    // - HOST=127.0.0.1: a test must not listen on every interface of a shared machine; inside the
    //   container 0.0.0.0 is what lets the published port reach the process.
    // - PORT: a free port the OS picked, since 8080 may be taken here; the health check gets the same
    //   PORT, as it would inside the container.
    // Absolute paths in ENV (DIST_DIR, STATE_DIR) point into the folder standing for the image's root.
    const port = await freePort();
    env = { PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin` };
    for (const [name, value] of Object.entries(runtime.env)) {
      env[name] = value.startsWith("/") ? inRoot(runtime.root, value) : value;
    }
    env.HOST = "127.0.0.1";
    env.PORT = String(port);
    const [command = "", ...args] = execForm(all(RUNTIME, "CMD")[0]?.args ?? "[]");
    expect(command).toBe("node");
    child = spawn(process.execPath, args, { cwd: inRoot(runtime.root, runtime.workdir), env, stdio: "pipe" });
    const started = child;
    exited = new Promise((resolve) => started.on("exit", (code) => resolve(code)));
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the sidecar did not start:\n${output}`)), 30_000);
      const read = (chunk: Buffer) => {
        output += chunk;
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      started.stdout?.on("data", read);
      started.stderr?.on("data", read);
      started.on("exit", (code) => reject(new Error(`the sidecar exited ${code}:\n${output}`)));
    });
  }, 600_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
    rmSync(temp, { recursive: true, force: true });
  });

  it("copies the root manifests and packages/ only, none of the build's code or data", () => {
    const app = inRoot(runtime.root, runtime.workdir);
    expect(readdirSync(app).sort()).toEqual(["dist", "node_modules", "package-lock.json", "package.json", "packages"]);
    expect(runtime.fromContext.filter((f) => !f.startsWith("packages/") && !/^package(-lock)?\.json$/.test(f))).toEqual(
      [],
    );
    expect(runtime.fromContext.some((f) => f.endsWith(".astro"))).toBe(false);
    expect(runtime.fromContext).toContain("packages/server/src/main.ts");
    expect(existsSync(path.join(app, "dist", "build-manifest.json"))).toBe(true);
    expect(runtime.user).toBe("node");
  });

  it("links the workspace packages into node_modules, so Node runs their .ts files from packages/, not node_modules", () => {
    const app = inRoot(runtime.root, runtime.workdir);
    for (const [name, dir] of [
      [SHARED.name, "shared"],
      [SERVER.name, "server"],
    ] as const) {
      const link = path.join(app, "node_modules", name);
      expect(lstatSync(link).isSymbolicLink(), name).toBe(true);
      expect(realpathSync(link)).toBe(realpathSync(path.join(app, "packages", dir)));
    }
    // The server started from that tree (beforeAll), importing @riverbend/shared through the link:
    // Node strips types only outside node_modules, so it would have refused a copy inside it.
    expect(output).toContain("listening on");
  });

  it("holds every module the server imports, statically or lazily, relatively or by package name", () => {
    const app = inRoot(runtime.root, runtime.workdir);
    const missing: string[] = [];
    const seen = new Set<string>();
    const resolve = (file: string, specifier: string): string | undefined => {
      if (specifier.startsWith(".")) return path.resolve(path.dirname(file), specifier);
      const [scope = "", name = "", ...rest] = specifier.split("/");
      if (!WORKSPACE_NAMES.has(`${scope}/${name}`)) return undefined;
      // The package's `exports` map "./*" to "./src/*".
      return path.join(realpathSync(path.join(app, "node_modules", scope, name)), "src", ...rest);
    };
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) {
        const target = resolve(file, match[1] ?? match[2] ?? "");
        if (target === undefined) continue;
        if (existsSync(target)) visit(target);
        else missing.push(`${path.relative(app, file)} imports ${path.relative(app, target)}`);
      }
    };
    visit(path.join(app, "packages", "server", "src", "main.ts"));
    expect(missing).toEqual([]);
    expect(seen.size).toBeGreaterThan(30);
    expect([...seen].some((file) => file.includes(`${path.sep}shared${path.sep}src${path.sep}`))).toBe(true);
  });

  it("installs the server's production dependencies at their locked versions, not the build's, and no devDependency", () => {
    const modules = path.join(inRoot(runtime.root, runtime.workdir), "node_modules");
    const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string; dev?: boolean; dependencies?: Record<string, string> }>;
    };
    expect(SERVER_NEEDS).toEqual(expect.arrayContaining(["express", "zod"]));
    for (const name of SERVER_NEEDS) {
      const installed = JSON.parse(readFileSync(path.join(modules, name, "package.json"), "utf8")) as {
        version: string;
      };
      expect(installed.version, name).toBe(lock.packages[`node_modules/${name}`]?.version);
    }
    // The root package's (the build's) own production dependencies stay out, unless a package the
    // server installs needs one too.
    const neededByInstalled = new Set(
      Object.entries(lock.packages)
        .filter(([key]) => key.startsWith("node_modules/") && existsSync(path.join(modules, key.slice(13))))
        .flatMap(([, entry]) => Object.keys(entry.dependencies ?? {})),
    );
    const buildOnly = Object.keys(ROOT_PACKAGE.dependencies).filter(
      (name) => !WORKSPACE_NAMES.has(name) && !SERVER_NEEDS.includes(name) && !neededByInstalled.has(name),
    );
    expect(buildOnly.length).toBeGreaterThan(0);
    expect(buildOnly.filter((name) => existsSync(path.join(modules, name)))).toEqual([]);
    // Nothing the lockfile marks dev-only (astro, vitest, ...). A few devDependencies (ajv) are also
    // needed by a production dependency; the lockfile says so by not marking them "dev".
    const devOnly = Object.entries(lock.packages)
      .filter(([key, entry]) => key.startsWith("node_modules/") && entry.dev === true)
      .map(([key]) => key.slice("node_modules/".length));
    expect(devOnly).toEqual(expect.arrayContaining(["astro", "tsx", "wink-nlp", "vitest"]));
    expect(devOnly.filter((name) => existsSync(path.join(modules, name)))).toEqual([]);
    expect(existsSync(path.join(modules, "astro"))).toBe(false);
  });

  it("says at start-up that static files are left to the CDN, and opens the hub's database on the volume", () => {
    expect(output).toContain("static documents are not served here (SERVE_STATIC=false)");
    const state = env.STATE_DIR ?? "";
    expect(state.startsWith(runtime.root)).toBe(true);
    expect(readdirSync(state)).toContain("hub.sqlite");
  });

  it("passes its HEALTHCHECK", async () => {
    const { flags, argv } = healthcheckOf(RUNTIME);
    const code = await run(argv, env, inRoot(runtime.root, runtime.workdir), seconds(flags.timeout ?? "30s") * 1000);
    expect(code).toBe(0);
  });

  it("answers /healthz, /readyz, /metrics, search and since (with a 304 for a matching If-None-Match)", async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready" });
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^# HELP /m);

    const search = await fetch(`${base}/api/reviews/search?min_rating=4&limit=2`);
    expect(search.status).toBe(200);
    const page = (await search.json()) as { total: number; count: number };
    expect(page.count).toBe(2);
    expect(page.total).toBeGreaterThan(2);
    expect((await fetch(`${base}/api/reviews/search?limt=2`)).status).toBe(400);

    const since = await fetch(`${base}/api/reviews/since/2025-01-01`);
    expect(since.status).toBe(200);
    expect(((await since.json()) as { count: number }).count).toBeGreaterThan(0);
    const etag = since.headers.get("etag") ?? "";
    expect(etag).not.toBe("");
    const again = await fetch(`${base}/api/reviews/since/2025-01-01`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });

  it("answers MCP initialize and tools/list", async () => {
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const init = await fetch(`${base}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "container-test", version: "1" },
        },
      }),
    });
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id") ?? "";
    expect(session).not.toBe("");
    expect(((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe("2025-06-18");
    const sessionHeaders = { ...headers, "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" };
    const initialized = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(initialized.status).toBe(202);
    const list = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(list.status).toBe(200);
    const tools = ((await list.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(tools).toEqual(
      expect.arrayContaining(["get_business", "search_reviews", "get_review", "get_reviews_since"]),
    );
  });

  it("answers the WebSub hub: a subscription with a non-https callback is refused with 400", async () => {
    const response = await fetch(`${base}/api/websub/hub`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        "hub.mode": "subscribe",
        "hub.topic": `${env.SITE_URL}/feed.xml`,
        "hub.callback": "http://subscriber.example/websub",
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/callback/i);
  });

  it("does not serve the static documents or pages (SERVE_STATIC=false: the CDN does)", async () => {
    for (const page of ["/", "/reviews.json", "/feed.xml", "/api/feed.json", "/openapi.json", "/reviews/"]) {
      expect((await fetch(`${base}${page}`)).status, page).toBe(404);
    }
  });

  it("stops cleanly on its STOPSIGNAL, after which the health check fails", async () => {
    const signal = all(RUNTIME, "STOPSIGNAL")[0]?.args as NodeJS.Signals;
    child?.kill(signal);
    expect(await exited).toBe(0);
    const { argv } = healthcheckOf(RUNTIME);
    expect(await run(argv, env, inRoot(runtime.root, runtime.workdir), 10_000)).toBe(1);
  });
}, 600_000);
