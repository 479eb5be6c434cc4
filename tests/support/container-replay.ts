/**
 * Replays the Dockerfile's stages without a container engine: a temporary folder stands for each
 * image's filesystem root, and the build context is this repository, filtered by .dockerignore.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { assignments, execForm, type Stage, words } from "./container-dockerfile.ts";
import { ROOT } from "./run-build.ts";

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

const IGNORE = ignoreRules(readFileSync(path.join(ROOT, ".dockerignore"), "utf8"));

export interface Replayed {
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
export const inRoot = (root: string, containerPath: string) => path.join(root, containerPath);

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

export async function replay(stage: Stage, root: string, built: Map<string, string>): Promise<Replayed> {
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
        // folder under the stand-in root; apt-get is the test machine's own; chown cannot be replayed by an unprivileged test and is
        // checked instead (it must hand the VOLUME to the USER, see the lint tests).
        for (const step of text.split("&&").map((s) => s.trim())) {
          if (step.startsWith("npm ")) {
            state.log += await sh(step, inRoot(root, state.workdir), runEnv(state.env));
          } else if (step.startsWith("mkdir -p ")) {
            for (const folder of words(step).slice(2)) mkdirSync(inRoot(root, folder), { recursive: true });
          } else if (step.startsWith("apt-get ") || step === "rm -rf /var/lib/apt/lists/*") {
            // Debian packages (fonts-liberation): .ci/run installs the same on the test machine.
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

export function freePort(): Promise<number> {
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

export function run(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs: number,
): Promise<number | null> {
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
