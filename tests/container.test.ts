import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { validate } from "dockerfile-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./support/run-build.ts";

/**
 * The Dockerfile, proved without a container engine: it is linted, then its two stages are replayed
 * instruction by instruction in a temporary folder that stands for each image's filesystem root
 * (the build context is this repository, filtered by .dockerignore), and the sidecar is started with
 * the image's CMD and ENV and called on every route.
 */

// ---- a small Dockerfile reader (the Dockerfile keeps to one instruction per line, no heredocs) ----

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let buffer = "";
  let start = 0;
  text.split("\n").forEach((raw, index) => {
    if (/^\s*(#.*)?$/.test(raw)) return;
    if (buffer === "") start = index + 1;
    if (/\\\s*$/.test(raw)) {
      buffer += `${raw.replace(/\\\s*$/, "")} `;
      return;
    }
    buffer += raw;
    const match = /^\s*([A-Za-z]+)\s+([\s\S]*)$/.exec(buffer);
    if (!match?.[1] || match[2] === undefined) throw new Error(`Dockerfile line ${start}: cannot read "${buffer}"`);
    instructions.push({ keyword: match[1].toUpperCase(), args: match[2].trim(), line: start });
    buffer = "";
  });
  return instructions;
}

function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const [image = "", as, name] = instruction.args.split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === "AS" ? name : undefined, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`Dockerfile line ${instruction.line}: ${instruction.keyword} before FROM`);
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
const words = (args: string) => args.split(/\s+/).filter((w) => w.length > 0);

/** `NAME=value` pairs of an ENV or ARG line (values unquoted or double-quoted), with `${VAR}` expanded. */
function assignments(args: string, scope: Record<string, string>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)(?:=("(?:[^"\\]|\\.)*"|\S*))?/g)) {
    const [, name = "", raw] = match;
    if (raw === undefined) {
      pairs.push([name, scope[name] ?? ""]);
      continue;
    }
    const unquoted = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
    pairs.push([name, unquoted.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, a, b) => scope[a ?? b] ?? "")]);
  }
  return pairs;
}

/** Exec form (a JSON array) of CMD or of HEALTHCHECK ... CMD. */
function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === "string")) throw new Error(`not exec form: ${args}`);
  return parsed;
}

function healthcheckOf(stage: Stage): { flags: Record<string, string>; argv: string[] } {
  const [instruction] = all(stage, "HEALTHCHECK");
  const match = instruction && /^((?:--\S+\s+)*)CMD\s+(.*)$/s.exec(instruction.args);
  if (!match) throw new Error("no HEALTHCHECK ... CMD in the final stage");
  const flags = Object.fromEntries(
    words(match[1] ?? "").map((f) => f.replace(/^--/, "").split("=") as [string, string]),
  );
  return { flags, argv: execForm(match[2] ?? "") };
}

const seconds = (duration: string) => Number.parseFloat(duration) * (duration.endsWith("ms") ? 0.001 : 1);

// ---- .dockerignore (Docker's rules: patterns from the context root, `**` any depth, `!` re-includes) ----

function ignoreRules(text: string): { negate: boolean; pattern: RegExp }[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const negate = line.startsWith("!");
      const glob = path.posix.normalize(line.slice(negate ? 1 : 0).replace(/^\/+/, ""));
      let source = "";
      for (let i = 0; i < glob.length; i++) {
        const c = glob.charAt(i);
        if (glob.startsWith("**/", i)) {
          source += "(?:.*/)?";
          i += 2;
        } else if (glob.startsWith("**", i)) {
          source += ".*";
          i += 1;
        } else if (c === "*") source += "[^/]*";
        else if (c === "?") source += "[^/]";
        else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
      }
      return { negate, pattern: new RegExp(`^${source}$`) };
    });
}

/** A path is excluded when the last rule matching it or one of its parent folders is not a `!` rule. */
function isIgnored(relative: string, rules: { negate: boolean; pattern: RegExp }[]): boolean {
  const parts = relative.split("/");
  const prefixes = parts.map((_p, i) => parts.slice(0, i + 1).join("/"));
  let ignored = false;
  for (const rule of rules) if (prefixes.some((p) => rule.pattern.test(p))) ignored = !rule.negate;
  return ignored;
}

// ---- replaying a stage ----

const DOCKERFILE = readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
const STAGES = stagesOf(parseDockerfile(DOCKERFILE));
const RUNTIME = STAGES.at(-1) as Stage;
const IGNORE = ignoreRules(readFileSync(path.join(ROOT, ".dockerignore"), "utf8"));
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

interface Replayed {
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string | undefined;
  volumes: string[];
  /** Every file a COPY from the build context copied, relative to the context. */
  fromContext: string[];
  log: string;
}

/** Where a container path lives in the folder standing for the image's filesystem root. */
const inRoot = (root: string, containerPath: string) => path.join(root, containerPath);

function copyFromContext(source: string, target: string, copied: string[]): void {
  const from = path.join(ROOT, source);
  if (isIgnored(source, IGNORE) || !existsSync(from)) throw new Error(`COPY ${source}: not in the build context`);
  if (statSync(from).isFile()) {
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(from, target);
    copied.push(source);
    return;
  }
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const relative = path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
    if (isIgnored(relative, IGNORE)) continue;
    const destination = path.join(target, path.relative(from, path.join(entry.parentPath, entry.name)));
    mkdirSync(path.dirname(destination), { recursive: true });
    cpSync(path.join(entry.parentPath, entry.name), destination);
    copied.push(relative);
  }
}

/** The environment a RUN step gets: the stage's ENV plus what npm needs to reach its (warm) cache. */
function runEnv(stageEnv: Record<string, string>): Record<string, string> {
  const passed = Object.entries(process.env).filter(
    ([key]) =>
      /^(HOME|TMPDIR|https?_proxy|no_proxy|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR)$/i.test(key) ||
      /^npm_config_(registry|cache|userconfig|cafile)$/i.test(key),
  );
  return {
    ...(Object.fromEntries(passed) as Record<string, string>),
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    ...stageEnv,
    // The one addition: use the warm npm cache rather than the network where it can.
    npm_config_prefer_offline: "true",
  };
}

/** Runs a RUN step; after `timeoutMs` its whole process group (sh and npm) is killed, so nothing outlives the test. */
function sh(command: string, cwd: string, env: Record<string, string>, timeoutMs = 300_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`RUN ${command} ended with ${code ?? signal} (cwd ${cwd}):\n${output}`));
    });
  });
}

async function replay(stage: Stage, root: string, built: Map<string, string>): Promise<Replayed> {
  const state: Replayed = { root, workdir: "/", env: {}, user: undefined, volumes: [], fromContext: [], log: "" };
  const args: Record<string, string> = {};
  mkdirSync(root, { recursive: true });
  for (const { keyword, args: text, line } of stage.instructions) {
    const where = `Dockerfile line ${line}`;
    switch (keyword) {
      case "WORKDIR":
        state.workdir = path.posix.resolve(state.workdir, text);
        mkdirSync(inRoot(root, state.workdir), { recursive: true });
        break;
      case "ARG":
        for (const [name, value] of assignments(text, args)) args[name] = value;
        break;
      case "ENV":
        for (const [name, value] of assignments(text, { ...args, ...state.env })) state.env[name] = value;
        break;
      case "COPY": {
        const parts = words(text);
        const flags = parts.filter((p) => p.startsWith("--"));
        const rest = parts.filter((p) => !p.startsWith("--"));
        const destination = rest.pop() ?? "";
        const absolute = path.posix.resolve(state.workdir, destination);
        const intoFolder = destination.endsWith("/") || rest.length > 1;
        const from = flags.find((f) => f.startsWith("--from="))?.slice("--from=".length);
        for (const source of rest) {
          const target = inRoot(root, intoFolder ? path.posix.join(absolute, path.posix.basename(source)) : absolute);
          if (from !== undefined) {
            const stageRoot = built.get(from);
            if (!stageRoot) throw new Error(`${where}: COPY --from=${from}, a stage not built yet`);
            cpSync(inRoot(stageRoot, source), target, { recursive: true });
          } else {
            copyFromContext(source, target, state.fromContext);
          }
        }
        break;
      }
      case "RUN":
        // Each step of an `a && b` chain: npm commands run as written, in the WORKDIR; mkdir makes the
        // folder under the stand-in root; chown cannot be replayed by an unprivileged test and is
        // checked instead (it must hand the VOLUME to the USER, see the lint tests).
        for (const step of text.split("&&").map((s) => s.trim())) {
          if (step.startsWith("npm ")) {
            state.log += await sh(step, inRoot(root, state.workdir), runEnv(state.env));
          } else if (step.startsWith("mkdir -p ")) {
            for (const folder of words(step).slice(2)) mkdirSync(inRoot(root, folder), { recursive: true });
          } else if (!step.startsWith("chown ")) {
            throw new Error(`${where}: the test does not know how to replay "${step}"; teach it`);
          }
        }
        break;
      case "VOLUME":
        state.volumes.push(...execForm(text));
        break;
      case "USER":
        state.user = text;
        break;
      case "EXPOSE":
      case "HEALTHCHECK":
      case "STOPSIGNAL":
      case "CMD":
        break; // Read where they are used.
      default:
        throw new Error(`${where}: the test does not know how to replay ${keyword}; teach it`);
    }
  }
  return state;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function run(argv: string[], env: Record<string, string>, cwd: string, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const [command = "", ...rest] = argv;
    const child = spawn(command === "node" ? process.execPath : command, rest, { cwd, env, stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

// ---- the tests ----

describe("Dockerfile (lint)", () => {
  const envOf = (stage: Stage) =>
    Object.fromEntries(all(stage, "ENV").flatMap((i) => assignments(i.args, { SITE_URL: "$SITE_URL" })));

  it("has no problem dockerfile-utils finds", () => {
    expect(validate(DOCKERFILE)).toEqual([]);
  });

  it("is multi-stage on a pinned Node major (the one the tests run on), never latest", () => {
    expect(STAGES.length).toBeGreaterThanOrEqual(2);
    const major = process.versions.node.split(".")[0];
    for (const stage of STAGES) {
      expect(stage.image).toMatch(/^node:\d+-[a-z0-9.-]*slim$/); // DL3006: tagged; slim
      expect(stage.image).not.toMatch(/:latest$|^[^:]+$/); // DL3007
      expect(stage.image).toBe(`node:${major}-bookworm-slim`);
    }
  });

  it("keeps the hadolint rules that apply: exec form, no ADD, absolute WORKDIR, no cd or pipes in RUN", () => {
    for (const stage of STAGES) {
      expect(all(stage, "ADD")).toEqual([]); // DL3020
      expect(all(stage, "MAINTAINER")).toEqual([]); // DL4000
      for (const w of all(stage, "WORKDIR")) expect(w.args).toMatch(/^\//); // DL3000
      for (const r of all(stage, "RUN")) {
        expect(r.args).not.toMatch(/(^|&&|;)\s*cd\s/); // DL3003
        expect(r.args).not.toMatch(/[^|]\|[^|]/); // DL4006: no pipe whose failure would be hidden
        expect(r.args).not.toMatch(/\bsudo\b|apt-get upgrade/); // DL3004, DL3005
        expect(r.args).not.toMatch(/\bnpm ci\b(?!.*--omit=dev)/);
      }
    }
    expect(all(RUNTIME, "CMD")).toHaveLength(1); // DL4003
    expect(execForm(all(RUNTIME, "CMD")[0]?.args ?? "")).toEqual([
      "node",
      "--max-semi-space-size=16",
      "sidecar/src/main.ts",
    ]); // DL3025
    expect(all(RUNTIME, "ENTRYPOINT")).toEqual([]);
  });

  it("runs as the image's unprivileged node user, set before CMD", () => {
    const users = all(RUNTIME, "USER");
    expect(users.at(-1)?.args).toBe("node"); // DL3002: the last USER is not root
    expect(users.at(-1)?.line ?? Number.POSITIVE_INFINITY).toBeLessThan(all(RUNTIME, "CMD")[0]?.line ?? 0);
    // The only chown hands the state volume to that user.
    const chowns = RUNTIME.instructions.flatMap((i) => [...i.args.matchAll(/chown\s+(\S+)\s+(\S+)/g)]);
    expect(chowns.map((m) => [m[1], m[2]])).toEqual([["node:node", envOf(RUNTIME).STATE_DIR]]);
  });

  it("installs production dependencies only in the runtime stage, all of them in the build stage", () => {
    const installs = (stage: Stage) => all(stage, "RUN").filter((r) => /\bnpm (install|ci)\b/.test(r.args));
    expect(installs(RUNTIME).map((r) => r.args)).toEqual([expect.stringMatching(/^npm install --omit=dev\b/)]);
    for (const stage of STAGES.slice(0, -1)) for (const r of installs(stage)) expect(r.args).not.toContain("--omit");
    // The runtime stage takes the bundle from the build stage and nothing else from it.
    const fromBuild = all(RUNTIME, "COPY").filter((c) => c.args.includes("--from="));
    expect(fromBuild.map((c) => c.args)).toEqual([`--from=${STAGES[0]?.name} /app/dist ./dist`]);
  });

  it("is configured for the container: all interfaces, no static files, state on a volume, health check", () => {
    const env = envOf(RUNTIME);
    expect(env).toMatchObject({ NODE_ENV: "production", HOST: "0.0.0.0", SERVE_STATIC: "false" });
    expect(env.SITE_URL).toBe("$SITE_URL"); // the same build argument the bundle was built with
    const buildArgs = STAGES.map((s) => all(s, "ARG").find((a) => a.args.startsWith("SITE_URL="))?.args);
    expect(new Set(buildArgs).size).toBe(1); // one default, repeated in both stages
    expect(buildArgs[0]).toMatch(/^SITE_URL=https?:\/\/\S+$/);
    expect(all(RUNTIME, "VOLUME").flatMap((v) => execForm(v.args))).toEqual([env.STATE_DIR]);
    expect(all(RUNTIME, "EXPOSE").map((e) => e.args)).toEqual([env.PORT]);
    expect(all(RUNTIME, "STOPSIGNAL").map((s) => s.args)).toEqual(["SIGTERM"]);
    const health = healthcheckOf(RUNTIME);
    expect(health.argv[0]).toBe("node"); // no curl or wget in slim images
    expect(health.argv.join(" ")).toMatch(/\/(healthz|readyz)/);
    expect(seconds(health.flags.timeout ?? "30s")).toBeLessThanOrEqual(10);
  });
});

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

  it("copies only the sidecar, the modules it imports and the bundle, none of them build-only", () => {
    const app = inRoot(runtime.root, runtime.workdir);
    expect(readdirSync(app).sort()).toEqual([
      "dist",
      "node_modules",
      "package-lock.json",
      "package.json",
      "sidecar",
      "src",
    ]);
    expect(runtime.fromContext.filter((f) => f.startsWith("src/build/") || f.startsWith("src/pages/"))).toEqual([
      "src/build/content-types.ts",
      "src/build/manifest.ts",
    ]);
    expect(runtime.fromContext.some((f) => f.endsWith(".astro") || f.startsWith("data/"))).toBe(false);
    expect(existsSync(path.join(app, "dist", "build-manifest.json"))).toBe(true);
    expect(runtime.user).toBe("node");
  });

  it("holds every module the sidecar imports, statically or lazily", () => {
    const app = inRoot(runtime.root, runtime.workdir);
    const missing: string[] = [];
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/\bfrom\s+["'](\.[^"']+)["']|\bimport\s*\(\s*["'](\.[^"']+)["']\s*\)/g)) {
        const target = path.resolve(path.dirname(file), match[1] ?? match[2] ?? "");
        if (existsSync(target)) visit(target);
        else missing.push(`${path.relative(app, file)} imports ${path.relative(app, target)}`);
      }
    };
    visit(path.join(app, "sidecar", "src", "main.ts"));
    expect(missing).toEqual([]);
    expect(seen.size).toBeGreaterThan(30);
  });

  it("installs every production dependency at its locked version and no devDependency", () => {
    const modules = path.join(inRoot(runtime.root, runtime.workdir), "node_modules");
    const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string; dev?: boolean }>;
    };
    for (const name of Object.keys(PACKAGE.dependencies)) {
      const installed = JSON.parse(readFileSync(path.join(modules, name, "package.json"), "utf8")) as {
        version: string;
      };
      expect(installed.version, name).toBe(lock.packages[`node_modules/${name}`]?.version);
    }
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
