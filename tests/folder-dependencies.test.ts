import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/run-build.ts";

/*
 * The code as a graph of folders: the build's folders of src/ (one per capability), the shared
 * package's folders, and the server package as one node. An edge for every import of a file in
 * another folder, relative or by a workspace package's name (`@riverbend/shared/...`, resolved
 * through its `exports`, "./*": "./src/*").
 */
const IMPORT = /(?<![\w$.])(?:from|import)\s*\(?\s*["']([^"']+)["']/g;

interface Manifest {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
}
const manifest = (dir: string) => JSON.parse(readFileSync(path.join(ROOT, dir, "package.json"), "utf8")) as Manifest;
const WORKSPACES = readdirSync(path.join(ROOT, "packages")).map((name) => `packages/${name}`);
const BY_NAME = new Map(WORKSPACES.map((dir) => [manifest(dir).name, dir]));

function folderOf(file: string): string {
  const [top = "", second = "", third = "", fourth = ""] = path.relative(ROOT, file).split(path.sep);
  if (top === "src") return `src/${second}`;
  if (top === "packages" && second === "server") return "packages/server";
  if (top === "packages") return third === "src" ? `packages/${second}/src/${fourth}` : `packages/${second}`;
  return top;
}

/** The file an import names, or undefined for a package from the registry or Node itself. */
function target(file: string, specifier: string): string | undefined {
  if (specifier.startsWith(".")) return path.resolve(path.dirname(file), specifier);
  const [scope = "", name = "", ...rest] = specifier.split("/");
  const dir = BY_NAME.get(`${scope}/${name}`);
  return dir ? path.join(ROOT, dir, "src", ...rest) : undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|astro)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const imports = (file: string) => [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => m[1] ?? "");

function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of [...sourceFiles("src"), ...WORKSPACES.flatMap((dir) => sourceFiles(`${dir}/src`))]) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const specifier of imports(file)) {
      const to = target(file, specifier);
      if (to !== undefined && folderOf(to) !== from) edges.add(folderOf(to));
    }
  }
  return graph;
}

/** The folders on a cycle, each cycle once as a path "a -> b -> a". */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next].join(" -> "));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

/** What a workspace package's files import that its manifest does not let npm install with it. */
function undeclared(dir: string): string[] {
  const own = path.join(ROOT, dir);
  const declared = new Set(Object.keys(manifest(dir).dependencies ?? {}));
  const problems: string[] = [];
  for (const file of sourceFiles(`${dir}/src`)) {
    const where = path.relative(ROOT, file);
    for (const specifier of imports(file)) {
      const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
      if (specifier.startsWith(".")) {
        const to = target(file, specifier) ?? "";
        if (!to.startsWith(`${own}${path.sep}`)) problems.push(`${where} reaches outside ${dir}: ${specifier}`);
      } else if (!specifier.startsWith("node:") && !builtinModules.includes(name ?? "") && !declared.has(name ?? "")) {
        problems.push(`${where} imports ${specifier}, which ${dir}/package.json does not list`);
      }
    }
  }
  return problems;
}

describe("folders and packages", () => {
  it("import each other without cycles", () => {
    expect(cycles(folderGraph())).toEqual([]);
  });

  it("the root package lists every workspace under packages/, and the server depends on the shared package", () => {
    expect(manifest(".").workspaces).toEqual(["packages/*"]);
    expect(WORKSPACES.map((dir) => manifest(dir).name).sort()).toEqual(["@riverbend/server", "@riverbend/shared"]);
    expect(Object.keys(manifest("packages/server").dependencies ?? {})).toContain("@riverbend/shared");
  });

  it("each workspace package imports only its own files and the packages its manifest lists, so installing it alone is enough", () => {
    for (const dir of WORKSPACES) expect(undeclared(dir), dir).toEqual([]);
  });

  it("the shared package imports nothing of the server or the build", () => {
    const graph = folderGraph();
    const outside = [...graph.entries()]
      .filter(([from]) => from.startsWith("packages/shared/"))
      .flatMap(([from, to]) => [...to].filter((t) => !t.startsWith("packages/shared/")).map((t) => `${from} -> ${t}`));
    expect(outside).toEqual([]);
  });
});
