import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { stopAll, stopChild, track } from "./children.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** A child process (sidecar or subscriber) that printed "listening on URL". */
export interface Child {
  name: string;
  pid: number;
  url: string;
  child: ChildProcess;
  stderrTail(): string;
  stop(): Promise<void>;
}

export { stopAll };

/** Runs `node --import tsx SCRIPT` and resolves once it prints "listening on (http|https)://127.0.0.1:PORT". */
export function startChild(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  options: { ipc?: boolean; timeoutMs?: number; nodeArgs?: string[]; onStderrLine?: (line: string) => void } = {},
): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", ...(options.nodeArgs ?? []), script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: options.ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  track(child);
  let head = "";
  let stderr = "";
  // Drain both pipes so the child never blocks on a full one.
  child.stdout?.on("data", (chunk: Buffer) => {
    if (head.length < 8192) head += chunk.toString("utf8");
  });
  let partial = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    if (options.onStderrLine) {
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) options.onStderrLine(line);
    }
    stderr = (stderr + text.replace(/^memprobe .*\n?/gm, "")).slice(-4000);
  });
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise<Child>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      clearInterval(poll);
      void stopChild(child).then(() => reject(new Error(`${name}: ${why}\n${head}\n${stderr}`)));
    };
    const timer = setTimeout(() => fail(`no "listening on" line within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null) => fail(`exited with ${code} before listening`);
    child.once("exit", onExit);
    const poll = setInterval(() => {
      const match = /listening on (https?:\/\/127\.0\.0\.1:\d+)/.exec(head);
      if (!match?.[1] || child.pid === undefined) return;
      clearTimeout(timer);
      clearInterval(poll);
      child.off("exit", onExit);
      resolve({
        name,
        pid: child.pid,
        url: match[1],
        child,
        stderrTail: () => stderr,
        stop: () => stopChild(child),
      });
    }, 20);
  });
}

/** Sends an IPC message and resolves with the first reply of type `reply`. */
export function ask<T>(child: ChildProcess, message: object, reply: string, timeoutMs = 10_000): Promise<T> {
  const answer = nextMessage<T>(child, reply, timeoutMs);
  child.send(message);
  return answer;
}

/** Waits for one IPC message of type `type`. */
export function nextMessage<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off("message", onMessage);
      reject(new Error(`no "${type}" message within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off("message", onMessage);
      resolve(message as T);
    };
    child.on("message", onMessage);
  });
}
