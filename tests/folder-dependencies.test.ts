import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { all, RUNTIME, words } from "./support/container-dockerfile.ts";
import { ROOT } from "./support/run-build.ts";

/*
 * The folders of src/ (one per capability), sidecar/ and scripts/ as a graph: an edge for every
 * relative import from a file in one folder of a file in another.
 */
const IMPORT = /\b(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

function folderOf(file: string): string {
  const [top = "", second = ""] = path.relative(ROOT, file).split(path.sep);
  return top === "src" ? `src/${second}` : top;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|astro)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of [...sourceFiles(path.join(ROOT, "src")), ...sourceFiles(path.join(ROOT, "sidecar"))]) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const to = folderOf(path.resolve(path.dirname(file), match[1] ?? ""));
      if (to !== from) edges.add(to);
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

/** The folders the container's run-time stage copies from the build context. */
const copiedFolders = () =>
  all(RUNTIME, "COPY")
    .map((copy) => words(copy.args))
    .filter((args) => !args.some((arg) => arg.startsWith("--from")))
    .flatMap((args) => args.slice(0, -1))
    .filter((source) => source === "sidecar" || source.startsWith("src/"));

describe("folders", () => {
  it("import each other without cycles", () => {
    expect(cycles(folderGraph())).toEqual([]);
  });

  it("the server's folders import only each other, so the container copies whole folders", () => {
    const runtime = new Set(copiedFolders());
    const graph = folderGraph();
    const outside = [...runtime].flatMap((folder) =>
      [...(graph.get(folder) ?? [])].filter((to) => !runtime.has(to)).map((to) => `${folder} -> ${to}`),
    );
    expect(outside).toEqual([]);
    expect(runtime.has("sidecar")).toBe(true);
  });
});
