/**
 * A small reader for the repository's Dockerfile, shared by the container tests. The Dockerfile
 * keeps to one instruction per line and no heredocs, so this is all they need to read it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./run-build.ts";

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
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

export const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
export const words = (args: string) => args.split(/\s+/).filter((w) => w.length > 0);

/** `NAME=value` pairs of an ENV or ARG line (values unquoted or double-quoted), with `${VAR}` expanded. */
export function assignments(args: string, scope: Record<string, string>): [string, string][] {
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
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === "string")) throw new Error(`not exec form: ${args}`);
  return parsed;
}

export function healthcheckOf(stage: Stage): { flags: Record<string, string>; argv: string[] } {
  const [instruction] = all(stage, "HEALTHCHECK");
  const match = instruction && /^((?:--\S+\s+)*)CMD\s+(.*)$/s.exec(instruction.args);
  if (!match) throw new Error("no HEALTHCHECK ... CMD in the final stage");
  const flags = Object.fromEntries(
    words(match[1] ?? "").map((f) => f.replace(/^--/, "").split("=") as [string, string]),
  );
  return { flags, argv: execForm(match[2] ?? "") };
}

export const seconds = (duration: string) => Number.parseFloat(duration) * (duration.endsWith("ms") ? 0.001 : 1);

export const DOCKERFILE = readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
export const STAGES = stagesOf(parseDockerfile(DOCKERFILE));
export const RUNTIME = STAGES.at(-1) as Stage;
